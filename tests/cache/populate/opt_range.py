# ARGS: cache populate %s --arch sm_90 --cache-dir %t -O 4
# EXIT: 2
# MASK: \d+\.\d\d s$
# MASK: [^\s`]*tests/cache/populate/
from numba import cuda

N = 2


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0 + N
# CHECK:STDERR: -O: Value 4 not in range 0 to 3
# CHECK:STDERR: Run with --help for more information.
