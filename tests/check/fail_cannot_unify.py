# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def k(x, n):
    v = n
    if n > 0:
        # CHECK:STDERR: fail_cannot_unify.py:[[@LINE+4]]:9: error: `v` is assigned `array(float32, 1d, C)` here but `int64` elsewhere, and they have no common type [cannot-unify]
        # CHECK:STDERR:         v = x
        # CHECK:STDERR:         ^
        # CHECK:STDERR:
        v = x
    x[0] = 1
