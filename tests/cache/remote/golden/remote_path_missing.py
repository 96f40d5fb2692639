# ARGS: compile %s --remote rediss://cache.example|netrc
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote rediss://cache.example|netrc: `netrc`: expected netrc=PATH
