# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    if x[0] > 0:
        x[1] = later
    later = 1
    # CHECK:STDERR: fail_use_before_assign.py:[[@LINE+4]]:12: error: `never` is used but never assigned a value [use-before-assign]
    # CHECK:STDERR:     x[2] = never
    # CHECK:STDERR:            ^~~~~
    # CHECK:STDERR:
    x[2] = never
    # CHECK:STDERR: fail_use_before_assign.py:[[@LINE+4]]:5: error: `never` is used but never assigned a value [use-before-assign]
    # CHECK:STDERR:     never += 1
    # CHECK:STDERR:     ^~~~~
    # CHECK:STDERR:
    never += 1
