# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_condition.py:[[@LINE+4]]:8: error: cannot use `array(float32, 1d, C)` as a condition [invalid-condition]
    # CHECK:STDERR:     if x:
    # CHECK:STDERR:        ^
    # CHECK:STDERR:
    if x:
        x[0] = 1
    # CHECK:STDERR: fail_condition.py:[[@LINE+4]]:11: error: cannot use `cuda` as a condition [invalid-condition]
    # CHECK:STDERR:     while cuda:
    # CHECK:STDERR:           ^~~~
    # CHECK:STDERR:
    while cuda:
        pass
