# ARGS: compile %s --remote ftp://cache.example/pykc
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote ftp://cache.example/pykc: expected http[s]://HOST[:PORT][/PREFIX] or redis[s]://HOST[:PORT][/DB]
