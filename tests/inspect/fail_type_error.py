# ARGS: --diag-kinds inspect %s --emit types,ptx
"""A kernel with a type error: the diagnostic, nothing inspected, status 1."""
from numba import cuda


@cuda.jit("void(float32, float32[::1])")
def bad(a, x):
    # CHECK:STDERR: fail_type_error.py:[[@LINE+4]]:12: error: cannot index `float32` [not-indexable]
    # CHECK:STDERR:     x[0] = a[0]
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    x[0] = a[0]
