# ARGS: --diag-kinds compile %s --phase=check --dump-typed
import numpy as np
from numba import cuda

TABLE = np.arange(10)


def helper(v):
    return v + 1


@cuda.jit("void(int64[::1])")
def k(x):
    # CHECK:STDERR: fail_host_global.py:[[@LINE+4]]:12: error: `TABLE` is not a compile-time constant: kernels can use module constants (numbers, bools, tuples), imports and decorated functions [host-global]
    # CHECK:STDERR:     x[0] = TABLE[0]
    # CHECK:STDERR:            ^~~~~
    # CHECK:STDERR:
    x[0] = TABLE[0]
    # CHECK:STDERR: fail_host_global.py:[[@LINE+4]]:12: error: `helper` is not a device function: decorate it with `@cuda.jit(device=True)` [undecorated-function]
    # CHECK:STDERR:     x[1] = helper(2)
    # CHECK:STDERR:            ^~~~~~
    # CHECK:STDERR:
    x[1] = helper(2)
