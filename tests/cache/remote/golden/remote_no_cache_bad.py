# ARGS: compile %s --no-cache --remote redis://127.0.0.1:6379/x
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote redis://127.0.0.1:6379/x: `x` is not a database number
