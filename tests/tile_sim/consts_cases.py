"""The kernels of tests/gpu/kernels/tile_kernels20.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases20.py.

`consts_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

from tuple_cases import _packer

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"strict_wrap": (), "strict_promote": (5,), "rounded": (), "folded": (), "partial_tuple": (), "two_axes": ()}


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
