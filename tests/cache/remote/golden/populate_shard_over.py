# ARGS: cache populate %s --arch sm_90 --shard 4/3
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --shard 4/3: expected 1 <= I <= N (N at most 100000)
