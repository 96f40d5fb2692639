# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[:, ::1], float32)")
def k(x, f):
    # CHECK:STDERR: fail_invalid_index.py:[[@LINE+4]]:7: error: array index must be an integer, found `float32` [invalid-index]
    # CHECK:STDERR:     x[f, 0] = 1
    # CHECK:STDERR:       ^~~~
    # CHECK:STDERR:
    x[f, 0] = 1
    # CHECK:STDERR: fail_invalid_index.py:[[@LINE+4]]:7: error: too many indices for `array(float32, 2d, C)`: found 3 [invalid-index]
    # CHECK:STDERR:     x[0, 0, 0] = 2
    # CHECK:STDERR:       ^~~~~~~
    # CHECK:STDERR:
    x[0, 0, 0] = 2
    x[0] = 3
