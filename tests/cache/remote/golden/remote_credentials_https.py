# ARGS: compile %s --remote https://builder:hunter2@cache.example/pykc|read-write
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote https://***@cache.example/pykc|read-write: credentials in the URL are not supported: use $PYKC_REMOTE_TOKEN or a netrc file (`netrc=PATH`, $PYKC_REMOTE_NETRC)
