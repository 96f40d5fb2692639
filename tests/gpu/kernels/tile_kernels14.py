"""Tile kernels, fourteenth file: what cuTile's test files use that session 23 added (issue 22):
programmatic dependent launch (`ct.grid_dependency_control_*`), helpers that recurse on a
Constant (cuTile's test_helper_function), compile-time loops (`ct.static_iter`) and tuple
comprehensions (test_static_iter, test_tuple_comprehension), tuple concatenation. Checked on
the CPU by tests/tile_sim
(static_cases.py) and on the GPU by tests/gpu/cases/tile_cases14.py, both against NumPy.
"""
# pykc-compile: --const recursive.N=109

import cuda.tile as ct


@ct.kernel
def producer(a: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    ct.grid_dependency_control_launch_dependents()
    t = ct.load(a, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=t * 2 + 1)


@ct.kernel
def consumer(b: "float32[::1]", produced: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    t = ct.load(b, index=(bid,), shape=(32,))
    ct.grid_dependency_control_wait()
    p = ct.load(produced, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=p + t)


def add_levels(x, N):
    if N > 0:
        y = add_levels(x, N - 1) + 1
    else:
        y = x
    return y


@ct.kernel
def recursive(x: "float32[()]", out: "float32[()]", N: ct.Constant[int] = 3):
    t = ct.gather(x, ())
    ct.scatter(out, (), add_levels(t, N))


@ct.kernel
def static_weighted(x: "int32[::1]", y: "int32[::1]"):
    """cuTile's test_static_iter: `enumerate(tiles, 1)` and `range(len(tiles))` unrolled."""
    a = ct.load(x, (0,), (16,))
    b = ct.load(x, (1,), (16,))
    c = ct.load(x, (2,), (16,))
    tiles = a, b, c
    s = ct.zeros((16,), dtype=x.dtype)
    for i, t in ct.static_iter(enumerate(tiles, 1)):
        s += i * t
    for i in ct.static_iter(range(len(tiles))):
        s += (i + 1) * tiles[i]
    for t in ct.static_iter((a, c)):
        s += t
    ct.store(y, (0,), s + (a, b)[1] - b)


@ct.kernel
def static_columns(x: "int32[:, ::1]", y: "int32[::1]"):
    """A run-time loop inside a compile-time one, and a tuple grown in it."""
    doubled = ()
    for col in ct.static_iter(range(3)):
        s = ct.zeros((16,), dtype=x.dtype)
        for row in range(4):
            s += ct.load(x, (row, col), (1, 16)).reshape((16,))
        doubled += (s, s * 2)
    for i, d in ct.static_iter(enumerate(doubled)):
        ct.store(y, (i,), d)


@ct.kernel
def static_comprehension(x: "float32[::1]", y: "float32[::1]"):
    """cuTile's test_tuple_comprehension: tuples built by comprehensions, filtered, zipped,
    nested, and a constant one."""
    tiles = tuple(ct.load(x, (i,), (16,)) for i in ct.static_iter(range(3)))
    rotated = tuple(tiles[(i + 1) % 3] for i in ct.static_iter(range(3)))
    scaled = tuple(t * s for s, t in ct.static_iter(zip((1.0, 2.0, 3.0), rotated)) if s != 2.0)
    weights = tuple(tuple(i * 2 for i in ct.static_iter(range(j))) for j in ct.static_iter(range(4)))
    k = 0
    for t in ct.static_iter(rotated + scaled):
        ct.store(y, (k,), t)
        k += 1
    for row in ct.static_iter(weights):
        for w in ct.static_iter(row):
            ct.store(y, (k,), ct.full((16,), w, dtype=ct.float32) + tiles[0])
            k += 1


def factorial(n):
    ret = 1
    for i in range(1, n + 1):
        ret *= i
    return ret


@ct.kernel
def static_host_eval(x: "int32[::1]", N: ct.Constant[int] = 4):
    """cuTile's test_static_assert/test_static_eval: host-evaluated constants."""
    ct.static_assert(factorial(N) < 100, f"{N}! is too large")
    total = ct.static_eval(factorial(N) + sum([w * w for w in (1, 2, 3)]))
    ct.store(x, (ct.bid(0),), ct.full((16,), total, dtype=ct.int32) + ct.arange(16, dtype=ct.int32))


@ct.kernel
def static_tuple_params(arrays: "UniTuple(float32[:, ::1], 3)", scales: "UniTuple(int32, 3)",
                        out: "float32[:, ::1]"):
    """A compile-time loop over tuple parameters: each iteration binds one array and one number."""
    res = ct.zeros((16, 16), dtype=out.dtype)
    for a, s in ct.static_iter(zip(arrays, scales)):
        res += ct.load(a, (ct.bid(0), 0), (16, 16)) * s
    ct.store(out, (ct.bid(0), 0), res)


BOOLS = ((True, False), (True, True), (False, False), (True, False))


@ct.kernel
def astiles(x: "float32[:, :, ::1]", flags: "int32[:, ::1]", a: "int32", c: "float32", d: "bool"):
    """cuTile's test_astile: tiles from nested tuples of constants and run-time numbers."""
    t = ct.astile((((1, a), (2, a + 1)), ((3, c), (4, d))), dtype=ct.float32)
    mixed = (ct.int8(1), ct.astile(2, dtype=ct.int64), ct.full((), 3, dtype=ct.float32), 4)
    row = ct.astile(mixed, dtype=ct.float32).reshape((1, 1, 4))
    ct.store(x, (0, 0, 0), t + ct.sum(row))
    ct.store(flags, (0, 0), ct.astile(BOOLS, dtype=ct.int32) + ct.astile(ct.static_eval((0,) * 2), dtype=ct.int32))


@ct.kernel
def tuple_compares(y: "int32[::1]", a: "int32", c: "float32"):
    """cuTile's test_tuple: `in`, `not in`, `==`, `!=` with tuples of run-time numbers, and a
    starred tuple in a display."""
    t = (a, 1)
    r0 = a in (0, 2)
    r1 = a not in (c, 7)
    r2 = t == (0, 1)
    r3 = ((a, 1), 2) != ((0, 1), 2)
    r4 = (a, 1) in ((0, 1), (2, 1))
    r5 = c in (0.5, a)
    spliced = (7, *t, 8)
    bits = r0 * 1 + r1 * 2 + r2 * 4 + r3 * 8 + r4 * 16 + r5 * 32 + spliced[1] * 64 + spliced[3]
    ct.store(y, (ct.bid(0),), ct.full((16,), bits, dtype=ct.int32))
