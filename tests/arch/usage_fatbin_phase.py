# ARGS: compile %s --arch sm_90 --fatbin --phase ptx --no-cache -o %t
# EXIT: 2
"""A fatbin holds cubins: --fatbin with a compile that stops before them is refused."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --fatbin: a fatbin holds cubins, and this compile stops before them (--phase)
