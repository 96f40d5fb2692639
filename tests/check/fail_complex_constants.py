# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Complex numbers have no order, and NumPy refuses a complex as a real scalar."""
import numpy as np
from numba import cuda

REAL = np.float32(1j)
Z = 1j


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_complex_constants.py:[[@LINE+4]]:12: error: `REAL` is not a compile-time constant: kernels can use module constants (numbers, bools, tuples), imports and decorated functions [host-global]
    # CHECK:STDERR:     x[0] = REAL
    # CHECK:STDERR:            ^~~~
    # CHECK:STDERR:
    x[0] = REAL
    # CHECK:STDERR: fail_complex_constants.py:[[@LINE+4]]:8: error: unsupported operand types for `<`: `complex128` and `int64` [mismatched-operand-types]
    # CHECK:STDERR:     if Z < 1:
    # CHECK:STDERR:        ^~~~~
    # CHECK:STDERR:
    if Z < 1:
        x[1] = 1
