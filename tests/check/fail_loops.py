# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    for v in x:
        pass
    # CHECK:STDERR: fail_loops.py:[[@LINE+4]]:20: error: `range` takes integers, found `float64` [invalid-call]
    # CHECK:STDERR:     for i in range(1.5):
    # CHECK:STDERR:                    ^~~
    # CHECK:STDERR:
    for i in range(1.5):
        pass
    # CHECK:STDERR: fail_loops.py:[[@LINE+4]]:27: error: `range` step must not be zero [invalid-call]
    # CHECK:STDERR:     for i in range(0, 10, 0):
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    for i in range(0, 10, 0):
        pass
    for i in range(3):
        pass
    else:
        pass
