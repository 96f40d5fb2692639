"""Tile kernels, second file (docs/TILE.md): tests/gpu/kernels/tile_kernels2.py against
NumPy (helper functions, MatMul's swizzle_2d, tfloat32 rounding, argmax/argmin, reshape,
permute, transpose, broadcast_to, expand_dims), launched as cuTile launches them, with
fresh random inputs, ragged sizes and poisoned outputs.

Compiled output: <root>/tile_kernels2, from
    pykc compile tests/gpu/kernels/tile_kernels2.py --arch sm_90 -o <root>/tile_kernels2
"""

import os
import sys

import numpy as np

import pykc
from harness import case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from tile_sim import division_values  # noqa: E402

FOLDER = "tile_kernels2"


def _cdiv(a, b):
    return (a + b - 1) // b


def _exact(got, want, what):
    """Equal values, NaN where NaN is expected (bit patterns of floats not compared)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    same = (got == want) | (np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64)))
    if not np.all(same):
        i = int(np.flatnonzero(~same.ravel())[0])
        raise AssertionError(f"{what}: {int((~same).sum())} of {got.size} differ (first at {i}: "
                             f"{got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: exact"


def _close(got, want, rtol, atol, what):
    got = np.asarray(got)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    g, w = got.astype(np.float64), want.astype(np.float64)
    bad = ~np.isclose(g, w, rtol=rtol, atol=atol)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {g.size} differ (first at {i}: "
                             f"{g.ravel()[i]!r} != {w.ravel()[i]!r})")
    return f"{what}: max abs err {float(np.max(np.abs(g - w))) if g.size else 0:.2e}"


@case("tile swizzle_2d helper (MatMul's block mapping), dtype chosen by IfExp", FOLDER)
def tile_swizzled_scale(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for m, n in ((int(ctx.rng.integers(1, 3000)), int(ctx.rng.integers(1, 700))), (32, 64),
                 (1000, 20)):
        a = ctx.randn((m, n), np.float16)
        dc = via.to_dev(ctx.poison((m, n), np.float32))
        grid = _cdiv(m, 32) * _cdiv(n, 64)
        pykc.launch(None, (grid,), mod.swizzled_scale, (via.to_dev(a), dc, 32, 64))
        via.sync()
        scale = np.where((np.arange(m) // 32) % 2 == 0, 2.0, 0.5)[:, None]
        out.append(f"{m}x{n} " + _exact(via.to_host(dc), (a.astype(np.float64) * scale).astype(np.float32), "c"))
    return "; ".join(out)


@case("tile astype(ct.tfloat32): rounding to nearest, ties to even", FOLDER)
def tile_round_tf32(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    n = int(ctx.rng.integers(1000, 200000))
    x = ctx.randn(n, np.float32) * np.float32(1e3)
    bits = x.view(np.uint32)
    # Ties (to even: down for 0x3f801000, up for 0x3f803000), just below a tie, the largest
    # float (rounds to inf), infinities, a subnormal tie.
    bits[:8] = [0x3f801000, 0xbf801000, 0x3f800fff, 0x3f803000, 0x7f7fffff, 0x7f800000,
                0xff800000, 0x00001000]
    x = bits.view(np.float32)
    x[8] = np.nan
    dy = via.to_dev(ctx.poison(n, np.float32))
    pykc.launch(None, (_cdiv(n, 512),), mod.round_tf32, (via.to_dev(x), dy, 512))
    via.sync()
    odd = (bits >> np.uint32(13)) & np.uint32(1)
    want = np.where(np.isfinite(x), (bits + np.uint32(0xfff) + odd) & np.uint32(0xffffe000), bits)
    return f"n={n} " + _exact(via.to_host(dy), want.astype(np.uint32).view(np.float32), "y")


@case("tile helper functions: nested, defaults, keywords, early return, min/max/abs", FOLDER)
def tile_helpers(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for rows, cols in ((int(ctx.rng.integers(1, 2000)), int(ctx.rng.integers(1, 257))), (3, 256)):
        x = ctx.randn((rows, cols), np.float32)
        dy = via.to_dev(ctx.poison((rows, cols), np.float32))
        dlast = via.to_dev(ctx.poison(rows, np.int32))
        pykc.launch(None, (rows,), mod.helpers, (via.to_dev(x), dy, dlast, 256, False))
        via.sync()
        t = np.zeros((rows, 256))
        t[:, :cols] = x
        c = t - t.sum(1, keepdims=True) / 256
        pid = np.arange(rows)
        out.append(f"{rows}x{cols} " + _close(via.to_host(dy), (3 * c + np.abs(c))[:, :cols], 1e-5, 1e-5, "y"))
        out.append(_exact(via.to_host(dlast),
                          (np.maximum(pid - 1, 0) * 1000 + np.minimum(pid + 1, rows - 1)).astype(np.int32),
                          "last"))
    return "; ".join(out)


@case("tile float16 helper inside a loop (kernel layouts, loop barriers)", FOLDER)
def tile_helpers_f16(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for rows, cols in ((int(ctx.rng.integers(1, 3000)), int(ctx.rng.integers(1, 5000))), (64, 2048)):
        x = ctx.randn((rows, cols), np.float16)
        dy = via.to_dev(ctx.poison((rows, cols), np.float16))
        dsums = via.to_dev(ctx.poison(rows, np.float32))
        pykc.launch(None, (rows,), mod.helpers_f16, (via.to_dev(x), dy, dsums, 1024))
        via.sync()
        out.append(f"{rows}x{cols} " + _close(via.to_host(dy), 2 * x.astype(np.float64), 0, 0, "y"))
        out.append(_close(via.to_host(dsums), x.astype(np.float64).sum(1), 1e-5, 1e-3, "sums"))
    return "; ".join(out)


@case("tile argmax/argmin along rows and over a tile (NaN the worst, as cuTile's default; first of ties)", FOLDER)
def tile_arg_rows(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for rows, cols in ((int(ctx.rng.integers(3, 3000)), int(ctx.rng.integers(3, 513))), (4, 512)):
        x = ctx.randn((rows, cols), np.float32)
        x[0, cols // 2] = x[0, cols // 3] = 10.0
        x[1, cols - 1] = x[1, cols // 2] = np.nan
        x[2, 0] = x[2, cols - 1] = -10.0
        nb = _cdiv(rows, 4)
        damax, damin = via.to_dev(ctx.poison(rows, np.int32)), via.to_dev(ctx.poison(rows, np.int32))
        dflat = via.to_dev(ctx.poison(nb, np.int32))
        pykc.launch(None, (nb,), mod.arg_rows, (via.to_dev(x), damax, damin, dflat, 4, 512))
        via.sync()
        pad = np.full((nb * 4, 512), -np.inf, np.float32)
        pad[:rows, :cols] = x
        out.append(f"{rows}x{cols} " + _exact(via.to_host(damax), np.nanargmax(x, 1).astype(np.int32), "argmax"))
        out.append(_exact(via.to_host(damin), np.nanargmin(x, 1).astype(np.int32), "argmin"))
        out.append(_exact(via.to_host(dflat), np.nanargmax(pad.reshape(nb, -1), 1).astype(np.int32), "flat"))
    return "; ".join(out)


@case("tile argmax/argmin of a tile smaller than the block", FOLDER)
def tile_arg_small(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    n = int(ctx.rng.integers(100, 100000))
    x = ctx.randn(n, np.float32)
    x[n // 2] = np.nan
    nb = _cdiv(n, 64)
    damax, damin = via.to_dev(ctx.poison(nb, np.int32)), via.to_dev(ctx.poison(nb, np.int32))
    pykc.launch(None, (nb,), mod.arg_small, (via.to_dev(x), damax, damin, 64))
    via.sync()
    inside = np.arange(nb * 64) < n
    pad = np.zeros(nb * 64, np.float32)
    pad[:n] = x
    hi = np.where(inside, pad, -np.inf).reshape(nb, 64)
    lo = np.where(inside, pad, np.inf).reshape(nb, 64)
    return (f"n={n} " + _exact(via.to_host(damax), np.nanargmax(hi, 1).astype(np.int32), "argmax")
            + "; " + _exact(via.to_host(damin), np.nanargmin(lo, 1).astype(np.int32), "argmin"))


@case("tile argmax/argmin int32 along axis 0 (many ties)", FOLDER)
def tile_arg_cols(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    rows, cols = int(ctx.rng.integers(1, 65)), int(ctx.rng.integers(1, 5000))
    x = ctx.rng.integers(-5, 5, (rows, cols)).astype(np.int32)
    damax, damin = via.to_dev(ctx.poison(cols, np.int32)), via.to_dev(ctx.poison(cols, np.int32))
    pykc.launch(None, (_cdiv(cols, 32),), mod.arg_cols_i32, (via.to_dev(x), damax, damin, 64, 32))
    via.sync()
    return (f"{rows}x{cols} " + _exact(via.to_host(damax), np.argmax(x, 0).astype(np.int32), "argmax")
            + "; " + _exact(via.to_host(damin), np.argmin(x, 0).astype(np.int32), "argmin"))


@case("tile transpose, reshape+permute, broadcast_to, expand_dims, t[:, None]", FOLDER)
def tile_shapes(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    rows = int(ctx.rng.integers(1, 5000))
    x = ctx.randn((rows, 64), np.float32)
    nb = _cdiv(rows, 16)
    dxt = via.to_dev(ctx.poison((64, rows), np.float32))
    dp3 = via.to_dev(ctx.poison((nb * 8, 16, 8), np.float32))
    drel = via.to_dev(ctx.poison((rows, 64), np.float32))
    pykc.launch(None, (nb,), mod.shapes, (via.to_dev(x), dxt, dp3, drel, 16, 64))
    via.sync()
    pad = np.zeros((nb * 16, 64))
    pad[:rows] = x
    b = pad.reshape(nb, 16, 64)
    c = b - b.sum(2, keepdims=True) / 64
    rel = (c * b.max(1, keepdims=True) + b).reshape(nb * 16, 64)[:rows]
    return "; ".join([
        f"rows={rows} " + _exact(via.to_host(dxt), x.T, "transpose"),
        _exact(via.to_host(dp3), pad.reshape(nb, 16, 8, 8).transpose(0, 3, 1, 2)
               .reshape(nb * 8, 16, 8).astype(np.float32), "reshape+permute"),
        _close(via.to_host(drel), rel, 1e-5, 1e-5, "broadcast")])


@case("tile transpose f16 (tile.transpose() method, 2-D tile index)", FOLDER)
def tile_transpose_f16(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    r, c = int(ctx.rng.integers(1, 3000)), int(ctx.rng.integers(1, 3000))
    x = ctx.randn((r, c), np.float16)
    dy = via.to_dev(ctx.poison((c, r), np.float16))
    pykc.launch(None, (_cdiv(r, 32) * _cdiv(c, 32),), mod.transpose_f16, (via.to_dev(x), dy, 32))
    via.sync()
    return f"{r}x{c} " + _exact(via.to_host(dy), x.T, "y")


@case("tile division by one value (a one-element tile, a scalar): IEEE quotients bit for bit", FOLDER)
def tile_div_uniform(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for cols, scalar in ((1024, float(ctx.rng.standard_normal())), (1000, 2.0 ** -124 * 1.7),
                         (1024, -3.0e30), (int(ctx.rng.integers(1, 1025)), float("inf"))):
        x, d = division_values(ctx.rng, 512, cols)
        dy = via.to_dev(ctx.poison(x.shape, np.float32))
        dz = via.to_dev(ctx.poison(x.shape, np.float32))
        s = np.float32(scalar)
        pykc.launch(None, (x.shape[0],), mod.div_uniform, (via.to_dev(x), via.to_dev(d), dy, dz, s, 1024))
        via.sync()
        with np.errstate(all="ignore"):
            want_y, want_z = x / d[:, None], x / s
        for what, got, want in (("by row", via.to_host(dy), want_y), (f"by {s:g}", via.to_host(dz), want_z)):
            same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
            if not same.all():
                i = int(np.flatnonzero(~same.ravel())[0])
                raise AssertionError(f"{cols} cols {what}: {int((~same).sum())} of {got.size} differ "
                                     f"(first at {i}: {got.ravel()[i]!r} != {want.ravel()[i]!r}, "
                                     f"x {x.ravel()[i]!r}, d {d[i // cols]!r})")
        out.append(f"{cols} cols, s={s:g}: exact")
    return "; ".join(out)


@case("tile exp rounding modes: FULL within 2 ulps, APPROX within 2^-21 + |x log2 e| 2^-23 relative", FOLDER)
def tile_exp_modes(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    n = 100_000
    x = np.concatenate([ctx.rng.uniform(-87.0, 88.0, n - 6),
                        [0.0, -0.0, 1e-30, -1e-30, 88.5, -103.0]]).astype(np.float32)
    full = via.to_dev(ctx.poison(x.shape, np.float32))
    approx = via.to_dev(ctx.poison(x.shape, np.float32))
    pykc.launch(None, (_cdiv(n, 1024),), mod.exp_modes, (via.to_dev(x), full, approx, 1024))
    via.sync()
    want = np.exp(x.astype(np.float64))
    got_full, got_approx = via.to_host(full).astype(np.float64), via.to_host(approx).astype(np.float64)
    finite = want < np.finfo(np.float32).max
    ulp = np.spacing(want.astype(np.float32)).astype(np.float64)
    full_ulps = float(np.max(np.abs(got_full - want)[finite] / ulp[finite]))
    if full_ulps > 2.0:
        raise AssertionError(f"FULL: {full_ulps:.2f} ulps off")
    normal = finite & (want > np.finfo(np.float32).tiny)
    # ex2.approx: 2^-22 relative at most; y = x * log2(e) in float32 is off by the
    # product's rounding (|y| 2^-24) and log2(e)'s (|y| 2^-24), each costing ln(2) times
    # that relative in 2^y: at most |y| 2^-23 together.
    bound = 2.0 ** -21 + np.abs(x.astype(np.float64)) * 1.4427 * 2.0 ** -23
    rel = np.abs(got_approx - want) / want
    bad = normal & (rel > bound)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssertionError(f"APPROX: {int(bad.sum())} off, e.g. exp({x[i]!r}) = {got_approx[i]!r}, want {want[i]!r}")
    return f"FULL {full_ulps:.2f} ulps, APPROX max rel {float(np.max(rel[normal])):.2e}"
