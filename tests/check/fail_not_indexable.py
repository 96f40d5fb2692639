# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32, float32[::1])")
def scale(a, x):
    i = cuda.grid(1)
    # CHECK:STDERR: fail_not_indexable.py:[[@LINE+4]]:12: error: cannot index `float32` [not-indexable]
    # CHECK:STDERR:     x[i] = a[i] * x[i]
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    x[i] = a[i] * x[i]
