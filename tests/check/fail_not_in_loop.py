# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    if x[0] > 0:
        # CHECK:STDERR: fail_not_in_loop.py:[[@LINE+4]]:9: error: `break` outside loop [not-in-loop]
        # CHECK:STDERR:         break
        # CHECK:STDERR:         ^~~~~
        # CHECK:STDERR:
        break
    # CHECK:STDERR: fail_not_in_loop.py:[[@LINE+4]]:5: error: `continue` outside loop [not-in-loop]
    # CHECK:STDERR:     continue
    # CHECK:STDERR:     ^~~~~~~~
    # CHECK:STDERR:
    continue
