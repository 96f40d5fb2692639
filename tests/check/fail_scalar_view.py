# ARGS: --diag-kinds compile %s --phase=check
"""A number's view keeps its size; its argument is a number dtype."""
import numpy as np
from numba import cuda


@cuda.jit("void(float64[::1], int32[::1])")
def bad_views(x, y):
    # CHECK:STDERR: fail_scalar_view.py:[[@LINE+4]]:12: error: `float64.view(int32)` changes the size: a number's view keeps its bits (64 here) [unsupported-construct]
    # CHECK:STDERR:     y[0] = x[0].view(np.int32)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    y[0] = x[0].view(np.int32)
    # CHECK:STDERR: fail_scalar_view.py:[[@LINE+4]]:12: error: `.view` of a number takes an integer or float dtype [unsupported-construct]
    # CHECK:STDERR:     y[1] = y[0].view(x)
    # CHECK:STDERR:            ^~~~~~~~~~~~
    # CHECK:STDERR:
    y[1] = y[0].view(x)
