"""Tile kernels, thirteenth file: kernels made inside functions (issues 21/22), compiled ahead
of time by their qualified names: a factory taking a cuTile function and a number (`-D`), a
factory as cuTile's test_reduction writes it (`reduce_op(rows, axis=1, keepdims=...)`), a
test function whose statements before the kernel bind a constant and a helper (shadowing the
module's), and a kernel in a test method. Checked on the CPU by tests/tile_sim
(nested_cases.py) and on the GPU by tests/gpu/cases/tile_cases13.py, both against NumPy.
"""
# pykc-compile: --sig make_unary.kernel(float32[::1],float32[::1]) -D op=ct.exp -D factor=0.5
# pykc-compile: --sig make_reduce_axis1_2d.<locals>.kernel(float32[:,::1],float32[::1]) -D reduce_op=ct.max
# pykc-compile: --sig test_prelude.kernel(float32[::1],float32[::1])
# pykc-compile: --sig TestNested.test_rows.kernel(float32[:,::1],float32[:,::1])

import cuda.tile as ct

ConstInt = ct.Constant[int]
SHIFT = 100.0


def offset(t):
    return t + SHIFT


@ct.kernel
def top_level(x: "float32[::1]", y: "float32[::1]", TILE: ConstInt = 64):
    """The module's SHIFT and offset: the nested kernels' own do not leak here."""
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=offset(t))


def make_unary(op, factor):
    @ct.kernel
    def kernel(x, y, TILE: ConstInt = 128):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(y, index=(ct.bid(0),), tile=op(t) * factor)
    return kernel


def make_reduce_axis1_2d(reduce_op):
    @ct.kernel
    def kernel(input, output, B: ct.Constant[int] = 4, N: ct.Constant[int] = 64,
               keepdims: ct.Constant[bool] = False):
        px = ct.bid(0)
        rows = ct.load(input, index=(px, 0), shape=(B, N))
        out = reduce_op(rows, axis=1, keepdims=keepdims)
        if keepdims:
            ct.store(output, index=(px, 0), tile=out)
        else:
            ct.store(output, index=(px, ), tile=out)
    return kernel


def test_prelude():
    SHIFT = 3.0
    TILE = 32

    def offset(t):
        return t * 2 + SHIFT

    @ct.kernel
    def kernel(x, y):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(y, index=(ct.bid(0),), tile=offset(t))
    return kernel


class TestNested:
    def test_rows(self):
        ROWS, COLS = 2, 16

        @ct.kernel
        def kernel(x, y):
            t = ct.load(x, index=(ct.bid(0), 0), shape=(ROWS, COLS))
            ct.store(y, index=(ct.bid(0), 0), tile=ct.sum(t, axis=1, keepdims=True) - t)
        return kernel


@ct.kernel
def zero_d(x: "int32[()]", y: "float32[()]", out: "float32[::1]"):
    """0-d arrays (`int32[()]`, a 0-d torch tensor as cuTile's tests pass one): gather and
    scatter at `()`, a load of shape ()."""
    v = ct.gather(x, ())
    ct.scatter(x, (), v + 20)
    t = ct.load(y, index=(), shape=())
    ct.store(out, index=(ct.bid(0),), tile=t * 2)


@ct.kernel
def prod_rows(x: "float32[:, ::1]", rows: "float32[::1]", cols: "float32[::1]"):
    """ct.prod along either axis (cuTile's test_reduction passes it to its factories)."""
    t = ct.load(x, index=(ct.bid(0), 0), shape=(4, 32))
    ct.store(rows, index=(ct.bid(0),), tile=ct.prod(t, axis=1))
    ct.store(cols, index=(ct.bid(0),), tile=ct.prod(t, axis=0))


@ct.kernel
def list_targets(x: "int32[::1]", y: "int32[::1]"):
    """Unpacking into list and nested targets (cuTile's test_unpacking): constants and tiles."""
    t = (1, (2, 3, 4)), 5
    [(a, [b, c, d]), e] = t
    u = ct.load(x, index=(0,), shape=(16,))
    v = ct.load(x, index=(1,), shape=(16,))
    [p, q] = u, v
    r = u + v
    ct.store(y, index=(0,), tile=p * a + q * b + r * (c + d + e))
