# ARGS: --diag-kinds compile %s --phase=check --sig k(int32[::1]) --const n=7
# `ct.static_assert` on a host-evaluated condition that fails shows its message (an
# f-string as written); a helper that never returns is not evaluated on the host (the
# evaluation gives up after its step limit) and is then typed as a kernel helper.
import cuda.tile as ct


def factorial(n):
    ret = 1
    for i in range(1, n + 1):
        ret *= i
    return ret


def forever(n):
    while True:
        n += 1
    return n


@ct.kernel
def k(x, n: ct.Constant[int]):
    # CHECK:STDERR: fail_tile_static_host_eval.py:[[@LINE+4]]:5: error: static assertion failed: 7! = 5040, that's too much [static-assert]
    # CHECK:STDERR:     ct.static_assert(factorial(n) < 100, f"{n}! = {factorial(n)}, that's too much")
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.static_assert(factorial(n) < 100, f"{n}! = {factorial(n)}, that's too much")
    # CHECK:STDERR: fail_tile_static_host_eval.py:[[@LINE+4]]:22: error: the condition of `ct.static_assert` (here `bool`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.static_assert(forever(n) > 0)
    # CHECK:STDERR:                      ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.static_assert(forever(n) > 0)
