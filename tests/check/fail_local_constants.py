# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Shapes from locals that are not constants: bound twice, or bound to a run-time
value."""
import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def k(x, m):
    n = 64
    if m > 2:
        n = 32
    # CHECK:STDERR: fail_local_constants.py:[[@LINE+4]]:27: error: the shape of `cuda.shared.array` (an int or a tuple of ints) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     a = cuda.shared.array(n, dtype=np.float32)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    a = cuda.shared.array(n, dtype=np.float32)
    size = m * 2
    # CHECK:STDERR: fail_local_constants.py:[[@LINE+4]]:26: error: the shape of `cuda.local.array` (an int or a tuple of ints) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     b = cuda.local.array(size, dtype=np.float32)
    # CHECK:STDERR:                          ^~~~
    # CHECK:STDERR:
    b = cuda.local.array(size, dtype=np.float32)
    x[0] = a[0] + b[0]
