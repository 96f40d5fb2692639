# ARGS: cache populate %s --arch sm_90 --shard half
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --shard half: expected I/N, e.g. 2/4
