# ARGS: compile %s --remote http://:8080/pykc
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote http://:8080/pykc: no host
