# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(int32[::1]) --const n=4
"""`ct.static_assert` and `ct.static_eval` evaluate their argument as the host would (cuTile's
test_static_assert and test_static_eval): plain module functions run with loops, branches
and recursion on the kernel's constants, and `sum`, `len`, `min`, `max`, comprehensions."""
import cuda.tile as ct

WEIGHTS = (1, 2, 3)


def factorial(n):
    ret = 1
    for i in range(1, n + 1):
        ret *= i
    return ret


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def first_power_above(limit, base=2):
    p = 1
    while True:
        p *= base
        if p > limit:
            break
    return p


@ct.kernel
def k(x, n: ct.Constant[int]):
    ct.static_assert(factorial(n) < 100, f"{n}! is too large")
    total = ct.static_eval(sum(WEIGHTS) + sum([w * w for w in WEIGHTS]))
    big = ct.static_eval(max(fib(n + 6), first_power_above(100), len(WEIGHTS)))
    ct.static_assert(total == 20 and big == 128)
    ct.store(x, (0,), ct.full((16,), total + big, dtype=ct.int32))
# CHECK:STDOUT: kernel k k__i32a1C__Kn_4 void(int32[::1], n=4)
# CHECK:STDOUT:   big: int64
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   total: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
