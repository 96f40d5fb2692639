# ARGS: compile %s -o %t --no-cache -j 2000
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: --jobs: Value 2000 not in range 0 to 1024
# CHECK:STDERR: Run with --help for more information.
