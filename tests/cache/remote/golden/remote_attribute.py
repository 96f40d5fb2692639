# ARGS: compile %s --remote http://127.0.0.1:8080|read-only|colour=blue
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote http://127.0.0.1:8080|read-only|colour=blue: unknown attribute `colour=blue` (known: read-only, read-write, connect-timeout=MS, operation-timeout=MS, ca-file=PATH, client-cert=PATH, client-key=PATH, netrc=PATH, header-file=PATH, signing-key=PATH, verify-key=PATH, layout=bazel|standard)
