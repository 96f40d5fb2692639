# ARGS: inspect %s --emit sass --arch compute_90
# EXIT: 2
"""compute_90 is PTX alone: no SASS to show; the message names the arch that has it."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --emit sass needs a cubin, and `compute_90` is PTX alone: use --arch sm_90
