# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def k(x, n):
    t = (1, 2.5)
    # CHECK:STDERR: fail_tuple_index.py:[[@LINE+4]]:14: error: tuple index 2 is out of range for `Tuple(int64, float64)` [index-out-of-range]
    # CHECK:STDERR:     x[0] = t[2]
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    x[0] = t[2]
    # CHECK:STDERR: fail_tuple_index.py:[[@LINE+4]]:14: error: a tuple of mixed types (`Tuple(int64, float64)`) can only be indexed with a constant [invalid-index]
    # CHECK:STDERR:     x[1] = t[n]
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    x[1] = t[n]
