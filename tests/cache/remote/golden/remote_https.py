# ARGS: compile %s --remote https://cache.example/pykc
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote https://cache.example/pykc: TLS is not supported: use http:// or redis:// on a trusted network (or a TLS tunnel on the machine)
