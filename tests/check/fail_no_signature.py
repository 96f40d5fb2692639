# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit
# CHECK:STDERR: fail_no_signature.py:[[@LINE+4]]:5: error: kernel `untyped` has no types: give a signature (`@cuda.jit("void(float32[::1])")`), annotations, or `--sig 'untyped(...)'` [no-signature]
# CHECK:STDERR: def untyped(x, y):
# CHECK:STDERR:     ^~~~~~~
# CHECK:STDERR:
def untyped(x, y):
    x[0] = y
