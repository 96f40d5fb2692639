# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    # CHECK:STDERR: fail_recursion.py:[[@LINE+4]]:16: error: recursive call of `fact`: recursion is not supported in kernels [recursion]
    # CHECK:STDERR:     return n * fact(n - 1)
    # CHECK:STDERR:                ^~~~~~~~~~~
    # CHECK:STDERR:
    return n * fact(n - 1)


@cuda.jit("void(int64[::1])")
def k(x):
    x[0] = fact(x[1])
