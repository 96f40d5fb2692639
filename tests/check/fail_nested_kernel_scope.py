# ARGS: --diag-kinds compile %s --phase=check --sig make.k(float32[::1]) -D op=np.sin
"""A kernel made inside a function that uses a value of that function pykc cannot fold (a
parameter without `-D`, a local computed at run time) is an error naming the function and
the ways out; a qualified name that names nothing says which part was not found."""
import numpy as np
from numba import cuda

N = 4


def make(n, op):
    m = np.random.rand()

    @cuda.jit(device=True)
    def helper(v):
        # CHECK:STDERR: fail_nested_kernel_scope.py:[[@LINE+4]]:20: error: `m` is a parameter or local variable of `make`, which makes this kernel, and not a constant pykc can fold there: give its value with `-D m=VALUE`, or run the program under the JIT (`python -m pykc run PROGRAM`), which sees it at the first launch [enclosing-local]
        # CHECK:STDERR:         return v * m
        # CHECK:STDERR:                    ^
        # CHECK:STDERR:
        return v * m

    @cuda.jit
    def k(x):
        # CHECK:STDERR: fail_nested_kernel_scope.py:[[@LINE+4]]:16: error: `n` is a parameter or local variable of `make`, which makes this kernel, and not a constant pykc can fold there: give its value with `-D n=VALUE`, or run the program under the JIT (`python -m pykc run PROGRAM`), which sees it at the first launch [enclosing-local]
        # CHECK:STDERR:         x[0] = n + helper(x[1]) + op(x[2])
        # CHECK:STDERR:                ^
        # CHECK:STDERR:
        x[0] = n + helper(x[1]) + op(x[2])
    return k


class Holder:
    pass
