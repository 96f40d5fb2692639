# ARGS: compile %s --remote redis://127.0.0.1|operation-timeout=0
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote redis://127.0.0.1|operation-timeout=0: `operation-timeout=0`: expected operation-timeout=MS, 1 to 600000
