# ARGS: --diag-kinds compile %s --phase=check
# The file of kernel_filter.py without a kernel filter: both errors fail it.
from numba import cuda


@cuda.jit("void(float32[::1])")
def good(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * 2.0


@cuda.jit("void(float32, float32[::1])")
def bad(a, x):
    # CHECK:STDERR: fail_kernel_filter_all.py:[[@LINE+4]]:12: error: cannot index `float32` [not-indexable]
    # CHECK:STDERR:     x[0] = a[0]
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    x[0] = a[0]


@cuda.jit("float32(float32)", device=True)
def unused_helper(v):
    # CHECK:STDERR: fail_kernel_filter_all.py:[[@LINE+4]]:12: error: cannot index `float32` [not-indexable]
    # CHECK:STDERR:     return v[0]
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    return v[0]

