"""Tile kernels (issue 9, docs/TILE.md): tests/gpu/kernels/tile_kernels.py against NumPy,
launched as cuTile launches them (``pykc.launch(stream, grid, kernel, args)``, Constant
arguments included), with fresh random inputs, ragged sizes and poisoned outputs.

Compiled output: <root>/tile_kernels, from
    pykc compile tests/gpu/kernels/tile_kernels.py --arch sm_90 -o <root>/tile_kernels
"""

import numpy as np

import pykc
from harness import BACKENDS, VIAS, case

FOLDER = "tile_kernels"


def _cdiv(a, b):
    return (a + b - 1) // b


def _close(got, want, rtol, atol, what="out"):
    got = np.asarray(got)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    g, w = got.astype(np.float64), want.astype(np.float64)
    bad = ~np.isclose(g, w, rtol=rtol, atol=atol)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {g.size} differ beyond rtol {rtol} "
                             f"atol {atol} (first at {i}: {g.ravel()[i]!r} != {w.ravel()[i]!r})")
    return f"{what}: max abs err {float(np.max(np.abs(g - w))) if g.size else 0:.2e}"


def _stream(via):
    """A stream the framework works on (None: the legacy default stream)."""
    if via.name == "torch":
        return via.xp.cuda.current_stream()
    return None


# --------------------------------------------------------------------------- vector add

def _vector_add(ctx, backend, via_name, kernel, dtype, tile, n, scale_b=1):
    mod, via = ctx.load(backend), ctx.via(via_name)
    a, b = ctx.randn(n, dtype), ctx.randn(n, dtype)
    da, db, dc = via.to_dev(a), via.to_dev(b), via.to_dev(ctx.poison(n, dtype))
    pykc.launch(_stream(via), (_cdiv(n, tile),), mod[kernel], (da, db, dc, tile))
    via.sync()
    want = (a.astype(np.float64) + scale_b * b.astype(np.float64)).astype(dtype)
    return ctx.compare(via.to_host(dc), want)


for _be in BACKENDS:
    for _via in VIAS:
        def _va(ctx, be=_be, via=_via):
            # Ragged: n is not a multiple of the tile; also a single partial tile.
            n = int(ctx.rng.integers(1 << 18, 1 << 20))
            d = _vector_add(ctx, be, via, "vector_add", np.float32, 1024, n)
            _vector_add(ctx, be, via, "vector_add", np.float32, 1024, 1000)
            _vector_add(ctx, be, via, "vector_add", np.float32, 1024, 1024 * 7)
            return f"n={n} {d}"
        case(f"tile vector_add f32[{_be},{_via}]", FOLDER)(_va)


@case("tile vector_add f16", FOLDER)
def tile_vector_add_f16(ctx):
    n = int(ctx.rng.integers(1 << 18, 1 << 20))
    d = _vector_add(ctx, "cuda.core", "cupy", "vector_add_f16", np.float16, 2048, n)
    _vector_add(ctx, "cuda.core", "cupy", "vector_add_f16", np.float16, 2048, 3)
    return f"n={n} {d}"


@case("tile vector_add: tile smaller than the block", FOLDER)
def tile_vector_add_small(ctx):
    n = int(ctx.rng.integers(1000, 100000))
    d = _vector_add(ctx, "cuda.core", "cupy", "vector_add_small", np.float32, 32, n, scale_b=2)
    return f"n={n} {d}"


@case("tile launch refuses a Constant it was not compiled for", FOLDER)
def tile_refuses_constant(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    n = 4096
    a = via.to_dev(ctx.randn(n, np.float32))
    c = via.to_dev(ctx.poison(n, np.float32))
    msg = ctx.expect_error(pykc.ArgumentError,
                           lambda: pykc.launch(None, (4,), mod.vector_add, (a, a, c, 512)),
                           "vector_add", "tile_size=512", "tile_size=1024")
    if not np.all(np.isnan(via.to_host(c))):
        raise AssertionError("c was written although the launch was refused")
    return msg


# --------------------------------------------------------------------------- softmax

def _softmax_ref(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _softmax(ctx, via_name, kernel, dtype, rows, cols, consts, rows_per_block=1, rtol=1e-5,
             atol=1e-6):
    mod, via = ctx.load(), ctx.via(via_name)
    x = (ctx.randn((rows, cols), np.float32) * 4).astype(dtype)
    dx, dy = via.to_dev(x), via.to_dev(ctx.poison((rows, cols), dtype))
    pykc.launch(_stream(via), (_cdiv(rows, rows_per_block),), mod[kernel], (dx, dy, *consts))
    via.sync()
    got = via.to_host(dy)
    want = _softmax_ref(x)
    return _close(got, want, rtol, atol)


for _via in VIAS:
    def _sm(ctx, via=_via):
        rows = int(ctx.rng.integers(1, 3000))
        cols = int(ctx.rng.integers(1, 1025))    # ragged: padded with -inf in the tile
        d = _softmax(ctx, via, "softmax", np.float32, rows, cols, (1024,))
        _softmax(ctx, via, "softmax", np.float32, 5, 1024, (1024,))
        return f"{rows}x{cols} {d}"
    case(f"tile softmax f32[{_via}]", FOLDER)(_sm)


@case("tile softmax f16 (computes in f32)", FOLDER)
def tile_softmax_f16(ctx):
    rows, cols = int(ctx.rng.integers(1, 2000)), int(ctx.rng.integers(1000, 2049))
    d = _softmax(ctx, "cupy", "softmax_f16", np.float16, rows, cols, (2048,), rtol=2e-3,
                 atol=1e-4)
    return f"{rows}x{cols} {d}"


@case("tile softmax, 4 rows per block (axis reductions into a (4, 1) tile)", FOLDER)
def tile_softmax_rows(ctx):
    rows, cols = int(ctx.rng.integers(1, 1000)), int(ctx.rng.integers(1, 257))
    d = _softmax(ctx, "cupy", "softmax_rows", np.float32, rows, cols, (4, 256),
                 rows_per_block=4)
    return f"{rows}x{cols} {d}"


# --------------------------------------------------------------------------- layer norm

@case("tile layer_norm f32 (loops over column tiles)", FOLDER)
def tile_layer_norm(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    for rows, cols in ((int(ctx.rng.integers(1, 600)), int(ctx.rng.integers(1, 3000))),
                       (7, 512), (3, 1)):
        x = ctx.randn((rows, cols), np.float32) * 3 + 1
        w, b = ctx.randn(cols, np.float32), ctx.randn(cols, np.float32)
        eps = np.float32(1e-5)
        dx, dw, db = via.to_dev(x), via.to_dev(w), via.to_dev(b)
        dy = via.to_dev(ctx.poison((rows, cols), np.float32))
        pykc.launch(None, (rows,), mod.layer_norm, (dx, dw, db, dy, eps, 512))
        via.sync()
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=1, keepdims=True)
        var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
        want = (x64 - mean) / np.sqrt(var + np.float64(eps)) * w + b
        d = _close(via.to_host(dy), want, 1e-4, 1e-4)
    return d


# --------------------------------------------------------------------------- misc

@case("tile col_stats: axis-0 reductions, minimum, where, 0-d sum", FOLDER)
def tile_col_stats(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    cols = int(ctx.rng.integers(1, 2000))
    x = ctx.randn((64, cols), np.float32)
    blocks = _cdiv(cols, 32)
    outs = [via.to_dev(ctx.poison(cols, np.float32)) for _ in range(3)]
    total = via.to_dev(ctx.poison(blocks, np.float32))
    pykc.launch(None, (blocks,), mod.col_stats, (via.to_dev(x), *outs, total, 64, 32))
    via.sync()
    sums, maxs, mins = (via.to_host(o) for o in outs)
    parts = [_close(sums, x.astype(np.float64).sum(axis=0), 1e-5, 1e-4, "sums"),
             ctx.compare(maxs, x.max(axis=0), "maxs"),
             ctx.compare(mins, np.minimum(x, 0.5).min(axis=0), "mins")]
    pos = np.where(x > 0, x, 0).astype(np.float64)
    padded = np.zeros((64, blocks * 32))
    padded[:, :cols] = pos
    want_total = padded.reshape(64, blocks, 32).sum(axis=(0, 2))
    parts.append(_close(via.to_host(total), want_total, 1e-5, 1e-3, "total"))
    return f"cols={cols} " + "; ".join(parts)


@case("tile int_ops: floor division, modulo, power, arange, grid-stride loop", FOLDER)
def tile_int_ops(ctx):
    mod, via = ctx.load(), ctx.via("cupy")
    n = int(ctx.rng.integers(1, 200000))
    a = ctx.rng.integers(-10000, 10000, n).astype(np.int32)
    out = via.to_dev(ctx.poison(n, np.int32))
    pykc.launch(None, (37,), mod.int_ops, (via.to_dev(a), out, 256))
    via.sync()
    want = (a // 3 + a % 5 + np.arange(n) + (a % 7) ** 3).astype(np.int32)
    return f"n={n} " + ctx.compare(via.to_host(out), want)
