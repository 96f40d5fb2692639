# ARGS: --diag-kinds compile %s --phase=check --dump-typed
import math

from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_unknown_attribute.py:[[@LINE+4]]:9: error: `cuda` has no attribute `thread_idx` [unknown-attribute]
    # CHECK:STDERR:     i = cuda.thread_idx.x
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    i = cuda.thread_idx.x
    # CHECK:STDERR: fail_unknown_attribute.py:[[@LINE+8]]:12: error: `math` has no attribute `sinus` [unknown-attribute]
    # CHECK:STDERR:     x[0] = math.sinus(1.0) + x.nbytes_total
    # CHECK:STDERR:            ^~~~~~~~~~
    # CHECK:STDERR:
    # CHECK:STDERR: fail_unknown_attribute.py:[[@LINE+4]]:30: error: `array(float32, 1d, C)` has no attribute `nbytes_total` [unknown-attribute]
    # CHECK:STDERR:     x[0] = math.sinus(1.0) + x.nbytes_total
    # CHECK:STDERR:                              ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[0] = math.sinus(1.0) + x.nbytes_total
