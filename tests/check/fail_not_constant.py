# ARGS: --diag-kinds compile %s --phase=check --dump-typed
import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def k(x, n):
    # CHECK:STDERR: fail_not_constant.py:[[@LINE+4]]:29: error: the shape of `cuda.shared.array` (an int or a tuple of ints) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     buf = cuda.shared.array(n, np.float32)
    # CHECK:STDERR:                             ^
    # CHECK:STDERR:
    buf = cuda.shared.array(n, np.float32)
    # CHECK:STDERR: fail_not_constant.py:[[@LINE+4]]:19: error: the argument of `cuda.grid` (1, 2 or 3) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     i = cuda.grid(n)
    # CHECK:STDERR:                   ^
    # CHECK:STDERR:
    i = cuda.grid(n)
    # CHECK:STDERR: fail_not_constant.py:[[@LINE+4]]:28: error: array dimensions must be positive, found 0 [invalid-shape]
    # CHECK:STDERR:     loc = cuda.local.array((4, 0), np.float32)
    # CHECK:STDERR:                            ^~~~~~
    # CHECK:STDERR:
    loc = cuda.local.array((4, 0), np.float32)
    # CHECK:STDERR: fail_not_constant.py:[[@LINE+4]]:29: error: cuda.shared.array of 8388608 bytes is larger than a GPU allows [invalid-shape]
    # CHECK:STDERR:     big = cuda.shared.array(1 << 20, np.float64)
    # CHECK:STDERR:                             ^~~~~~~
    # CHECK:STDERR:
    big = cuda.shared.array(1 << 20, np.float64)
    # CHECK:STDERR: fail_not_constant.py:[[@LINE+4]]:31: error: `"float99"` is not a scalar dtype (write e.g. `np.float32`, `numba.int32` or `"float32"`) [invalid-type]
    # CHECK:STDERR:     typ = cuda.local.array(4, "float99")
    # CHECK:STDERR:                               ^~~~~~~~~
    # CHECK:STDERR:
    typ = cuda.local.array(4, "float99")
