# ARGS: cache populate %s --arch sm_90 --remote http://127.0.0.1|read-only|layout=sideways
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote http://127.0.0.1|read-only|layout=sideways: unknown attribute `layout=sideways` (known: read-only, read-write, connect-timeout=MS, operation-timeout=MS, ca-file=PATH, client-cert=PATH, client-key=PATH, netrc=PATH, header-file=PATH, signing-key=PATH, verify-key=PATH, layout=bazel|standard)
