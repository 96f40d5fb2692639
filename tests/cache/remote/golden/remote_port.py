# ARGS: compile %s --remote http://127.0.0.1:99999/pykc
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote http://127.0.0.1:99999/pykc: `99999` is not a port (1 to 65535)
