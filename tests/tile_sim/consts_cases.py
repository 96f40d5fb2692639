"""The kernels of tests/gpu/kernels/tile_kernels20.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases20.py.

`consts_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
from fractions import Fraction

import numpy as np

from tuple_cases import _packer

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"strict_wrap": (), "strict_promote": (5,), "rounded": (), "folded": (), "partial_tuple": (), "two_axes": (), "nan_rows": (), "rounded_sums": ()}


def consts_cases(run, arr, rng):
    x = np.full(8, -7, np.int64)
    y = np.full(256, -7, np.int64)
    z = np.full(256, -7, np.int64)
    run("strict_wrap", 1, arr(x) + arr(y) + arr(z))
    yield "strictly typed constants wrap as NumPy does", x, np.array(
        [0xfffffffd, 0xabcdef23, 1294967296, 44, 4, 0xfffffffc, 0xfffffffd, 1], np.int64), "exact"
    i = np.arange(256, dtype=np.int64)
    yield "run-time int8 conversion of a loop counter", y, (i - 128 + 3 * i).astype(np.int8).astype(np.int64), "exact"
    yield "run-time uint8 conversion of a loop counter", z, (i - 1000).astype(np.uint8).astype(np.int64), "exact"
    out = np.full(4, -1, np.int32)
    wide = np.full(8, np.nan, np.float32)
    run("strict_promote", 1, arr(out) + arr(wide))
    yield "n + ct.int16(2) is 7, an int16 that an int8 tile promotes to", out, np.arange(4, dtype=np.int32) + 7, "exact"
    f = np.float32(np.float16(1.5)) + np.float32(0.1)
    g = np.float32(np.float16(np.float16(1.5) + np.float16(0.25)))
    yield "a strict float32 constant widens a float16 tile; float() of it does not", wide, \
        np.array([f] * 4 + [g] * 4, np.float32), "exact"
    r = np.full(3, np.nan, np.float64)
    run("rounded", 1, arr(r))
    yield "constants rounded to float16, float8_e8m0fnu and float32", r, \
        np.array([float(np.float16(0.2)), 0.25, float(np.float32(0.1))]), "exact"
    o = np.full(4, -1, np.int32)
    run("folded", 1, arr(o))
    yield "tuple slices, strings, `is` and a while-True loop that breaks once", o, \
        (np.full(4, 21 * 4) + np.arange(4) * 5 + 15).astype(np.int32), "exact"
    tup = _packer(arr)
    a = rng.integers(-50, 50, 16).astype(np.int32)
    o = np.full(16, -1, np.int32)
    run("partial_tuple", 1, arr(a) + arr(o) + tup(tup(3, 16), -7))
    yield "a tuple parameter's Constant element as the tile size, the tuple passed whole", o, a * 3 - 7 + 16, "exact"
    x = rng.standard_normal((4, 8, 16)).astype(np.float32)
    big = np.full((4, 1, 1), np.nan, np.float32)
    sums = np.full(8, np.nan, np.float32)
    run("two_axes", 1, arr(x) + arr(big) + arr(sums))
    yield "ct.max over axes (1, 2) with keepdims", big, x.max(axis=(1, 2), keepdims=True), "exact"
    yield "ct.sum over axes (0, -1)", sums, x.astype(np.float64).sum(axis=(0, 2)), ("close", 1e-5)
    # cuTile's own NaN test rows (test_reduction.py), padded to 8 rows with NaN.
    inf, nan = np.inf, np.nan
    x = np.array([[3.0, 0.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0],
                  [3.0, inf, nan, 1.5, 5.0, -2.0, 2.0, 6.0],
                  [nan, nan, 7.0, 1.0, nan, 8.0, nan, 0.5],
                  [5.0, -3.0, 2.0, nan, 4.0, 0.0, -inf, 1.0],
                  [nan] * 8], np.float32)
    f = np.full((8, 8), -7, np.float32)
    i = np.full((4, 8), -7, np.int32)
    run("nan_rows", 1, arr(x) + arr(f) + arr(i))
    pad = [nan] * 3
    yield "ct.max ignores NaN by default (cuTile's reference)", f[0], np.array([9.0, inf, 8.0, 5.0, nan] + pad, np.float32), "exact-nan"
    yield "ct.min ignores NaN by default", f[1], np.array([0.0, -2.0, 0.5, -inf, nan] + pad, np.float32), "exact-nan"
    yield "ct.max(propagate_nan=True)", f[2], np.array([9.0, nan, nan, nan, nan] + pad, np.float32), "exact-nan"
    yield "ct.min(propagate_nan=True)", f[3], np.array([0.0, nan, nan, nan, nan] + pad, np.float32), "exact-nan"
    yield "ct.maximum(t, 1.0) ignores NaN", f[4], np.fmax(x[0], 1.0), "exact-nan"
    yield "ct.maximum(t, 1.0, propagate_nan=True)", f[5], np.maximum(x[1], 1.0), "exact-nan"
    yield "ct.argmax: NaN the worst by default", i[0], np.array([5, 1, 5, 0, 0, 0, 0, 0], np.int32), "exact"
    yield "ct.argmin: NaN the worst by default", i[1], np.array([1, 5, 7, 6, 0, 0, 0, 0], np.int32), "exact"
    yield "ct.argmax(propagate_nan=True)", i[2], np.array([5, 2, 0, 3, 0, 0, 0, 0], np.int32), "exact"
    yield "ct.argmin(propagate_nan=True)", i[3], np.array([1, 2, 0, 3, 0, 0, 0, 0], np.int32), "exact"
    # Rows whose sums and products round differently under each mode (one inexact step).
    u = 2.0 ** -23
    x = np.zeros((4, 8), np.float32)
    x[0, :2] = [1.0, 0.75 * u]      # 1 + 0.75 ulp
    x[1, :2] = [-1.0, -0.75 * u]
    x[2, :2] = [1.0, 0.25 * u]      # 1 + 0.25 ulp
    x[3, :2] = [2.0 ** -127, -1.0]  # a subnormal (max keeps it; flushed: 0)
    p = np.ones((4, 8), np.float32)
    p[:, :2] = [[1 + u, 1 + u], [-(1 + u), 1 + u], [1 + 2 * u, 1 + u], [3.0, np.float32(1.0 / 3.0)]]
    f = np.full((8, 4), -7, np.float32)
    run("rounded_sums", 1, arr(x) + arr(p) + arr(f))

    def directed(v, up):
        """The float32 next to the exact rational `v` in that direction."""
        r = np.float32(float(v))
        if up and Fraction(float(r)) < v:
            r = np.nextafter(r, np.float32(np.inf))
        if not up and Fraction(float(r)) > v:
            r = np.nextafter(r, np.float32(-np.inf))
        return r

    exact_sums = [sum(Fraction(float(e)) for e in row) for row in x]
    exact_prods = [np.prod([Fraction(float(e)) for e in row]) for row in p]
    toward_zero = [directed(v, v < 0) for v in exact_sums]
    yield "ct.sum (RN)", f[0], np.array([np.float32(float(v)) for v in exact_sums]), "exact"
    yield "ct.sum(rounding_mode=RZ)", f[1], np.array(toward_zero, np.float32), "exact"
    yield "ct.sum(rounding_mode=RP)", f[2], np.array([directed(v, True) for v in exact_sums], np.float32), "exact"
    yield "ct.prod(rounding_mode=RM)", f[3], np.array([directed(v, False) for v in exact_prods], np.float32), "exact"
    yield "ct.prod(rounding_mode=RP)", f[4], np.array([directed(v, True) for v in exact_prods], np.float32), "exact"
    yield "ct.max(flush_to_zero=True) flushes a subnormal", f[5], np.array([1.0, 0.0, 1.0, 0.0], np.float32), "exact"
    yield "ct.max keeps a subnormal", f[6], np.array([1.0, 0.0, 1.0, 2.0 ** -127], np.float32), "exact"
