# ARGS: compile %s --remote redis://127.0.0.1|layout=bazel
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote redis://127.0.0.1|layout=bazel: unknown attribute `layout=bazel` (known: read-only, read-write, connect-timeout=MS, operation-timeout=MS, ca-file=PATH, client-cert=PATH, client-key=PATH, netrc=PATH, signing-key=PATH, verify-key=PATH)
