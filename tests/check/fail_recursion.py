# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Recursion without a signature: the recursive call takes the type of the returns
# seen before it (numba's rule), so `fact` and `halves` type; `down` has no return
# before its recursive call.
from numba import cuda


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@cuda.jit(device=True)
def halves(x):
    if x <= 0:
        return 1
    return 0.5 * halves(x - 1)


@cuda.jit(device=True)
def down(n):
    # CHECK:STDERR: fail_recursion.py:[[@LINE+4]]:12: error: cannot type the recursive call of `down`: give it an explicit signature (`@cuda.jit("int64(int64)", device=True)`) or return before the recursive call [recursion]
    # CHECK:STDERR:     return down(n - 1) if n > 0 else 0
    # CHECK:STDERR:            ^~~~~~~~~~~
    # CHECK:STDERR:
    return down(n - 1) if n > 0 else 0


@cuda.jit("void(int64[::1])")
def k(x):
    x[0] = fact(x[1]) + halves(x[2]) + down(x[3])
