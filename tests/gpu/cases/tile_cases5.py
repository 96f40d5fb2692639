"""Tile kernels, fifth file: tests/gpu/kernels/tile_kernels5.py on the GPU against NumPy:
integer `//` and `%` (int32, int64, uint32; tile and scalar divisors) with negative
operands, zero divisors (0) and INT_MIN // -1 (wraps, remainder 0), and a kernel and
helper with docstrings.

Compiled output: <root>/tile_kernels5, from
    pykc compile tests/gpu/kernels/tile_kernels5.py --arch sm_90 -o <root>/tile_kernels5
"""

import numpy as np

import pykc
from harness import case

FOLDER = "tile_kernels5"
TILE = 256


def python_divmod(a, b):
    """numba's GPU values of a // b and a % b, elementwise, in a's dtype."""
    a = np.asarray(a)
    b = np.broadcast_to(np.asarray(b, a.dtype), a.shape)
    info = np.iinfo(a.dtype)
    q = np.zeros_like(a)
    r = np.zeros_like(a)
    for i in range(a.size):
        x, y = int(a.flat[i]), int(b.flat[i])
        if y == 0:
            continue
        qq, rr = x // y, x % y  # Python's floor semantics
        if qq > info.max:  # INT_MIN // -1 wraps
            qq -= 1 << info.bits
        q.flat[i], r.flat[i] = qq, rr
    return q, r


def operands(rng, dtype, n):
    info = np.iinfo(dtype)
    lo = max(info.min, -1000)
    x = rng.integers(lo, 1000, n, dtype=np.int64).astype(dtype)
    y = rng.integers(lo // 100, 11, n, dtype=np.int64).astype(dtype)
    # The edge cases first: zero divisors, -1, the extremes.
    edge_x = [info.min, info.min, info.max, 7, -7, 7, -7, 0, 5, info.max]
    edge_y = [-1 if info.min < 0 else 1, 0, -1 if info.min < 0 else 1, 2, 2, 0, -2 if info.min < 0 else 3, 3,
              0, info.max]
    wrap = 1 << info.bits  # unsigned: -7 is 2**32 - 7
    x[:len(edge_x)] = [v % wrap if info.min == 0 else v for v in edge_x]
    y[:len(edge_y)] = [v % wrap if info.min == 0 else v for v in edge_y]
    return x, y


@case("tile integer // and %: floor rounding, zero divisors give 0, INT_MIN // -1 wraps "
      "(int32, int64, uint32, scalar divisor)", FOLDER)
def tile_integer_divmod(ctx):
    mod = ctx.load()
    via = ctx.via("cupy")
    checked = 0
    n = 4 * TILE
    for kernel, dtype in (("divmod_i32", np.int32), ("divmod_i64", np.int64), ("divmod_u32", np.uint32)):
        x, y = operands(ctx.rng, dtype, n)
        q = via.to_dev(ctx.poison(n, dtype))
        r = via.to_dev(ctx.poison(n, dtype))
        pykc.launch(None, (n // TILE,), getattr(mod, kernel), (via.to_dev(x), via.to_dev(y), q, r, TILE))
        via.sync()
        wq, wr = python_divmod(x, y)
        for what, got, want in (("//", via.to_host(q), wq), ("%", via.to_host(r), wr)):
            bad = np.flatnonzero(got != want)
            if bad.size:
                i = bad[0]
                raise AssertionError(f"{kernel} {what}: {bad.size} of {n} wrong; first at {i}: "
                                     f"{x[i]} {what} {y[i]} = {got[i]}, want {want[i]}")
        checked += 2 * n
    x, _ = operands(ctx.rng, np.int32, n)
    for d in (7, -7, 0, -1):
        q = via.to_dev(ctx.poison(n, np.int32))
        r = via.to_dev(ctx.poison(n, np.int32))
        pykc.launch(None, (n // TILE,), mod.divmod_scalar, (via.to_dev(x), np.int32(d), q, r, TILE))
        via.sync()
        wq, wr = python_divmod(x, np.int32(d))
        if not (np.array_equal(via.to_host(q), wq) and np.array_equal(via.to_host(r), wr)):
            raise AssertionError(f"divmod_scalar by {d}: wrong values")
        checked += 2 * n
    return f"{checked} quotients and remainders exact"


@case("tile kernel and helper with docstrings and `...` compute a * x", FOLDER)
def tile_docstrings(ctx):
    mod = ctx.load()
    via = ctx.via("cupy")
    n = 8 * TILE
    x = ctx.randn(n, np.float32)
    y = via.to_dev(ctx.poison(n, np.float32))
    pykc.launch(None, (n // TILE,), mod.scale_documented, (via.to_dev(x), y, np.float32(1.5), TILE))
    via.sync()
    got = via.to_host(y)
    if not np.array_equal(got, np.float32(1.5) * x):
        raise AssertionError(f"{np.count_nonzero(got != np.float32(1.5) * x)} of {n} wrong")
    return f"{n} elements exact"
