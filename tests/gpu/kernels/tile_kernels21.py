"""Tile kernels, twenty-first file: functions defined inside tile kernels and helpers (nested
`def`, `lambda`) as cuTile 1.7 runs them (issue 22; cuTile's test_closure, test_reduction,
test_tuple_comprehension): captures read as they are at the call while the defining function
runs, frozen when a closure is returned, defaults evaluated at the `def`, closures passed to
helpers, helpers returning arrays, closures chosen in run-time branches, tuples of lambdas, and
`ct.reduce` with a user combine function.
Checked on the CPU by tests/tile_sim (closure_cases.py) and on the GPU by
tests/gpu/cases/tile_cases21.py, both against NumPy.
"""
import operator

import cuda.tile as ct


def apply(f, t):
    # A module-level helper calling the function it is given.
    return f(t) + f(t * 0)


def make_default(default):
    def f(x, i, t=default):
        ct.scatter(x, i, t)
    default = -1
    return f


def make_adder(t):
    def add(y):
        return y + t
    return add


@ct.kernel
def live_captures(x: "int32[::1]", y: "int32[::1]", n: "int32"):
    def foo(t):
        return t + n
    f = lambda t, m=100: t * 2 + k + m  # noqa: E731
    v = ct.gather(x, 0)
    k = 5
    ct.scatter(y, 0, foo(v))
    ct.scatter(y, 1, f(v))
    n = 100
    k = 7
    ct.scatter(y, 2, foo(v))
    ct.scatter(y, 3, f(v, m=1000))
    g = lambda t: t * 10 + k  # noqa: E731
    ct.scatter(y, 4, g(v))
    ct.scatter(y, 5, (lambda a, b=3: a - b)(v))


@ct.kernel
def tile_captures(x: "float32[::1]", y: "float32[::1]", s: "float32"):
    bias = ct.load(x, (0,), (64,))

    def scale(t):
        return t * s + bias

    i = ct.bid(0) + 1
    ct.store(y, (i,), scale(ct.load(x, (i,), (64,))))


@ct.kernel
def frozen_captures(x: "int32[::1]", y: "int32[::1]"):
    def make_closure(t):
        def f(v):
            return v + t
        return f

    c = make_closure(30)
    tx = ct.gather(x, 0)
    d = make_closure(tx)
    e = make_adder(tx * 2)
    ct.scatter(y, 0, c(tx))
    ct.scatter(y, 1, d(5))
    ct.scatter(y, 2, e(1))


@ct.kernel
def capture_depths(x: "int32[::1]"):
    def f0(x0):
        def f1(x1):
            def f2(x2):
                def f3(x3):
                    def f4(x4):
                        ct.scatter(x, 0, x0)
                        ct.scatter(x, 1, x1)
                        ct.scatter(x, 2, x2)
                        ct.scatter(x, 3, x3)
                        ct.scatter(x, 4, x4)
                    return f4
                g4 = f3(30)
                g4(40)
            return f2
        g2 = f1(10)
        g2(20)

    f0(ct.bid(0))


@ct.kernel
def defaults_and_arrays(x: "float32[::1]", y: "float32[::1]", z: "float32[::1]"):
    def func(t, a=10.0, b=3.0):
        return t * a + b

    def get_view(arr, tile_size):
        return arr.tiled_view(tile_size)

    def copy_tile(src, dst, i):
        dst.store(i, func(src.load(i), b=0.5))

    tv_x = get_view(x, 32)
    tv_y = get_view(y, 32)
    for i in range(tv_x.num_tiles(0)):
        copy_tile(tv_x, tv_y, i)

    def copy(i):
        ct.store(z, (i,), func(ct.load(x, (i,), (32,)), 4.0))

    for i in range(2):
        copy(i)


@ct.kernel
def passed_closures(x: "float32[::1]", y: "float32[::1]"):
    off = ct.gather(x, 0)
    t = ct.load(x, (1,), (16,))
    add = lambda u: u + off  # noqa: E731
    ct.store(y, (0,), apply(add, t))
    ct.store(y, (1,), apply(lambda u: u * 2.0, t))


@ct.kernel
def custom_reduce(x: "int32[:, ::1]", y: "int32[::1]", p: "int32[::1]"):
    xt = ct.load(x, (0, 0), (16, 16))
    modulo = ct.gather(p, 0)

    def f(a, b):
        return a + b

    ct.store(y, (0,), ct.reduce(xt, 0, f, 0))
    ct.store(y, (1,), ct.reduce(xt, -1, lambda a, b: (a + b) % modulo, 0))
    ct.store(y, (2,), ct.reduce(xt, 1, operator.add, 0))
    ct.store(y, (3,), ct.reduce(xt, 0, lambda a, b: ct.maximum(a, b), -2147483648))
    k = ct.reduce(xt, 0, lambda a, b: a + b, 0, keepdims=True)
    ct.store(y, (4,), k.reshape((16,)))


@ct.kernel
def reduce_tuples(x: "int32[:, ::1]", y: "int32[::1]", yi: "int32[::1]", w: "float32[::1]", mv: "float32[::1]"):
    def minimum_with_index(a_val, a_idx, b_val, b_idx):
        lt = a_val < b_val
        eq = a_val == b_val
        mask = lt | (eq & (a_idx < b_idx))
        return ct.where(mask, a_val, b_val), ct.where(mask, a_idx, b_idx)

    xt = ct.load(x, (0, 0), (4, 8))
    idx = ct.arange(8, dtype=ct.int32)
    yt, yit = ct.reduce((xt, idx), 1, minimum_with_index, (2**31 - 1, 0))
    ct.store(y, (0,), yt)
    ct.store(yi, (0,), yit)

    def combine(mean_a, m2_a, weight_a, mean_b, m2_b, weight_b):
        delta = mean_b - mean_a
        new_weight = weight_a + weight_b
        wb_normalized = ct.where(new_weight == 0, 0, weight_b / new_weight)
        new_mean = mean_a + delta * wb_normalized
        new_m2 = m2_a + m2_b + delta * delta * weight_a * wb_normalized
        return new_mean, new_m2, new_weight

    tx = ct.load(w, (0,), 256)
    tw = ct.load(w, (1,), 256)
    tm2 = ct.zeros((256,), dtype=tx.dtype)
    mean, m2, _ = ct.reduce((tx, tm2, tw), 0, combine, (0, 0, 0))
    ct.scatter(mv, 0, mean)
    ct.scatter(mv, 1, m2)


@ct.kernel
def joined_closures(x: "int32[::1]", y: "int32[::1]"):
    def make_closure(t):
        def f(v):
            return v + t
        return f

    i = ct.bid(0)
    if i == 0:
        c = make_closure(30)
    else:
        c = make_closure(40)
    ct.scatter(y, i, c(ct.gather(x, i)))
    if i == 0:
        d = make_default(3)
    else:
        d = make_default(4)
    d(y, i + 2)


@ct.kernel
def lambda_tuples(y: "int32[::1]"):
    # Python's late binding: every stored lambda sees the comprehension's last `s`.
    fns = tuple(lambda: s for s in ct.static_iter(range(4)))
    for k, f in ct.static_iter(enumerate(fns)):
        ct.scatter(y, k, f())
    now = tuple((lambda: s)() for s in ct.static_iter(range(4)))
    for k, v in ct.static_iter(enumerate(now)):
        ct.scatter(y, k + 4, v)

    def make(t):
        def g(v):
            return v * t
        return g, "unused"

    h = make(ct.bid(0) + 3)[0]
    ct.scatter(y, 8, h(5))
    a, b, c, d = fns
    ct.scatter(y, 9, a() + d() * len(fns))
