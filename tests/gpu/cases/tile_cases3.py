"""Tile kernels, third file (docs/TILE.md, "Gather and scatter"):
tests/gpu/kernels/tile_kernels3.py against NumPy (ct.gather, ct.scatter: 1-D and 2-D
arrays, broadcast (M, 1) x (1, N) indices, out-of-bounds indices under check_bounds, masks,
padding values as scalars and tiles, strided views, float16/float32/int32), with fresh
random inputs, ragged sizes and poisoned outputs.

Compiled output: <root>/tile_kernels3, from
    pykc compile tests/gpu/kernels/tile_kernels3.py --arch sm_90 -o <root>/tile_kernels3
"""

import os
import sys

import numpy as np

import pykc
from harness import case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from tile_sim import gather_ref, scatter_ref  # noqa: E402

FOLDER = "tile_kernels3"


def _cdiv(a, b):
    return (a + b - 1) // b


def _exact(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    bad = got != want
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ (first at {i}: "
                             f"{got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: exact"


def _scatter_exact(got, want, cand, what):
    """As _exact, where a target of several values (duplicate indices) may hold any one."""
    got = np.array(got)
    for t, values in cand.items():
        if len(values) > 1:
            if got[t].item() not in values:
                raise AssertionError(f"{what}: duplicate target {t} holds {got[t]!r}, not one of "
                                     f"{sorted(values)}")
            got[t] = want[t]
    return _exact(got, want, what)


@case("tile ct.gather 1-D: strided views, out-of-bounds indices give 0 (f32, f16, i32)", FOLDER)
def tile_gather_1d(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for kernel, dt, idt, tile in (("gather_f32", np.float32, np.int32, 256),
                                  ("gather_f16", np.float16, np.int64, 1024),
                                  ("gather_i32", np.int32, np.int32, 64)):
        n, m = int(ctx.rng.integers(1, 100000)), int(ctx.rng.integers(1, 300000))
        base = (ctx.randn(2 * n, np.float32) * 100).astype(dt)
        idx = ctx.rng.integers(-n - 5, 2 * n + 5, _cdiv(m, tile) * tile).astype(idt)
        idx[:4] = [0, n - 1, -1, n]
        dx = via.to_dev(base)[::2]
        dy = via.to_dev(ctx.poison(idx.size, dt))
        pykc.launch(None, (_cdiv(m, tile),), getattr(mod, kernel), (dx, via.to_dev(idx), dy, tile))
        via.sync()
        out.append(_exact(via.to_host(dy), gather_ref(base[::2], (idx,)), f"{kernel} n={n} m={m}"))
    return "; ".join(out)


@case("tile ct.gather by channel, ct.where-safe indices with check_bounds=False", FOLDER)
def tile_gather_channels(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for n, c in ((int(ctx.rng.integers(1, 500000)), int(ctx.rng.integers(1, 1000))), (512, 512), (3, 1)):
        x, mean = ctx.randn(n, np.float32), ctx.randn(c, np.float32)
        dy = via.to_dev(ctx.poison(n, np.float32))
        pykc.launch(None, (_cdiv(n, 512),), mod.gather_channels,
                    (via.to_dev(x), via.to_dev(mean), dy, np.int32(c), 512))
        via.sync()
        out.append(_exact(via.to_host(dy), x - mean[np.arange(n) % c], f"n={n} C={c}"))
    return "; ".join(out)


@case("tile ct.gather 2-D: (M,1) x (1,N) indices, padding scalar/tile, mask, strided", FOLDER)
def tile_gather_2d(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for h, w in ((int(ctx.rng.integers(1, 700)), int(ctx.rng.integers(1, 700))), (16, 32)):
        m, n = int(ctx.rng.integers(1, 600)), int(ctx.rng.integers(1, 600))
        gm, gn = _cdiv(m, 16), _cdiv(n, 32)
        base = ctx.randn((h, 2 * w), np.float32)
        rows = ctx.rng.integers(-3, h + 3, gm * 16).astype(np.int32)
        cols = ctx.rng.integers(-3, w + 3, gn * 32).astype(np.int32)
        dp, dq, ds = (via.to_dev(ctx.poison((gm * 16, gn * 32), np.float32)) for _ in range(3))
        pykc.launch(None, (gm, gn), mod.gather_2d,
                    (via.to_dev(base)[:, 1::2], via.to_dev(rows), via.to_dev(cols), dp, dq, ds, 16, 32))
        via.sync()
        x, r, c = base[:, 1::2], rows[:, None], cols[None, :]
        keep = (r + c) % 3 != 0
        pad = (np.arange(gn * 32) % 32 + 100).astype(np.float32)[None, :]
        out.append(_exact(via.to_host(dp), gather_ref(x, (r, c), -1.0), f"{h}x{w} padding -1"))
        out.append(_exact(via.to_host(dq), gather_ref(x, (r, c), 0.0, keep), f"{h}x{w} mask"))
        out.append(_exact(via.to_host(ds), gather_ref(x, (r, c), pad, keep), f"{h}x{w} mask+pad tile"))
    h, w = int(ctx.rng.integers(1, 1000)), int(ctx.rng.integers(1, 1000))
    base = ctx.randn((h, w + 7), np.float16)
    gm, gn = _cdiv(h + 10, 32), _cdiv(w, 64)
    rows = ctx.rng.integers(-5, h + 5, gm * 32).astype(np.int32)
    dy = via.to_dev(ctx.poison((gm * 32, gn * 64), np.float16))
    pykc.launch(None, (gm, gn), mod.gather_rows_f16, (via.to_dev(base)[:, :w], via.to_dev(rows), dy, 32, 64))
    via.sync()
    out.append(_exact(via.to_host(dy), gather_ref(base[:, :w], (rows[:, None], np.arange(gn * 64)[None, :]), -2.0),
                      f"f16 rows {h}x{w}"))
    x = ctx.rng.integers(-1000, 1000, (6, 5)).astype(np.int32)
    dy = via.to_dev(ctx.poison(8 * 128, np.int32))
    pykc.launch(None, (8,), mod.gather_scalar, (via.to_dev(x), dy, 128))
    via.sync()
    want = np.arange(128)[None, :] + np.where(np.arange(8) < 6, x[np.minimum(np.arange(8), 5), 3], 0)[:, None]
    out.append(_exact(via.to_host(dy), want.reshape(-1).astype(np.int32), "scalar indices"))
    return "; ".join(out)


@case("tile ct.scatter 1-D: masks, out-of-bounds skipped, int32 -> f16, duplicates", FOLDER)
def tile_scatter_1d(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for dups in (False, True):
        # The int32 values stored into float16 stay below 65504 (finite).
        n = int(ctx.rng.integers(1, 50000))
        nb = _cdiv(n + int(ctx.rng.integers(0, 5000)), 512)
        if dups:
            idx = ctx.rng.integers(-20, n + 20, nb * 512).astype(np.int32)
        else:
            idx = np.concatenate([ctx.rng.permutation(n), ctx.rng.integers(n, n + 50, nb * 512 - n)]).astype(np.int32)
            idx[-1] = -1
            ctx.rng.shuffle(idx)
        vals = ctx.randn(nb * 512, np.float32)
        dbase = via.to_dev(np.full(2 * n, -9.0, np.float32))
        dout2 = via.to_dev(np.full(n, -9.0, np.float16))
        pykc.launch(None, (nb,), mod.scatter_1d, (dbase[::2], dout2, via.to_dev(idx), via.to_dev(vals), 512))
        via.sync()
        base = via.to_host(dbase)
        if not (base[1::2] == -9.0).all():
            raise AssertionError("scatter_1d wrote between the strided elements")
        want, cand = scatter_ref(np.full(n, -9.0, np.float32), (idx,), vals, vals > 0)
        out.append(_scatter_exact(base[::2], want, cand, f"masked n={n} dups={dups}"))
        want2, cand2 = scatter_ref(np.full(n, -9.0, np.float16), (idx,), np.arange(nb * 512))
        out.append(_scatter_exact(via.to_host(dout2), want2, cand2, f"int32->f16 n={n}"))
    return "; ".join(out)


@case("tile ct.scatter 2-D: (M,1) x (1,N) indices, mask, scalar and row values, strided", FOLDER)
def tile_scatter_2d(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    out = []
    for h, w in ((int(ctx.rng.integers(1, 500)), int(ctx.rng.integers(1, 500))), (16, 16)):
        gm, gn = _cdiv(h + 4, 16), _cdiv(w + 4, 16)
        rows = np.concatenate([ctx.rng.permutation(h), [-1, h, h + 5, -7]]).astype(np.int32)
        cols = np.concatenate([ctx.rng.permutation(w), [w, -2, w + 1, -1]]).astype(np.int32)
        rows = np.concatenate([rows, np.full(gm * 16 - rows.size, h + 100, np.int32)])
        cols = np.concatenate([cols, np.full(gn * 16 - cols.size, -100, np.int32)])
        src = ctx.rng.integers(-50, 50, (gm * 16, gn * 16)).astype(np.int32)
        dout = via.to_dev(np.full((h, 2 * w), -1000, np.int32))
        dout2 = via.to_dev(np.full((h, w), -1000, np.int32))
        dout3 = via.to_dev(np.full((2 * h, w), -1000.0, np.float32))
        pykc.launch(None, (gm, gn), mod.scatter_2d,
                    (dout[:, ::2], dout2, dout3[::2], via.to_dev(rows), via.to_dev(cols), via.to_dev(src), 16, 16))
        via.sync()
        r, c = rows[:, None], cols[None, :]
        init = np.full((h, w), -1000, np.int32)
        got = via.to_host(dout)
        if not (got[:, 1::2] == -1000).all():
            raise AssertionError("scatter_2d wrote between the strided columns")
        out.append(_exact(got[:, ::2], scatter_ref(init, (r, c), src, src >= 0)[0], f"{h}x{w} masked"))
        out.append(_exact(via.to_host(dout2), scatter_ref(init, (r, c), 7)[0], f"{h}x{w} scalar 7"))
        out.append(_exact(via.to_host(dout3)[::2],
                          scatter_ref(init.astype(np.float32), (r, c), (np.arange(gn * 16) % 16)[None, :])[0],
                          f"{h}x{w} row value"))
    dout = via.to_dev(np.full(20, -1.0, np.float32))
    pykc.launch(None, (12,), mod.scatter_scalar, (dout,))
    via.sync()
    want = np.full(20, -1.0, np.float32)
    want[0:20:2] = np.arange(10) + 0.5
    out.append(_exact(via.to_host(dout), want, "scalar index"))
    return "; ".join(out)
