"""The kernels of tests/gpu/kernels/tile_kernels16.py (cuTile's TiledView, specialisation
constants) with NumPy references, shared by tests/tile_sim/tile_sim.py (CPU) and
tests/gpu/cases/tile_cases16.py.

`tiledview_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)`
runs a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"view_copy_2d": (), "view_windows": (), "view_padding": (), "view_scalars": (),
          "view_box_filter": (), "view_atomics": (), "static_strides": ()}


def _windows(x, tile, step, plus=0):
    out = np.zeros_like(x)
    for start in range(0, len(x), step):
        out[start:start + tile] = x[start:start + tile] + plus
    return out


def tiledview_cases(run, arr, rng):
    # 2-D copy by tile index (ragged edges), num_tiles, a 0-d tile view storing them.
    x = rng.standard_normal((40, 72)).astype(np.float32)
    y = np.full((40, 72), np.nan, np.float32)
    n = np.zeros(2, np.int32)
    run("view_copy_2d", (3, 3), arr(x) + arr(y) + arr(n))
    yield "tiled_view((16, 32)) load/store by tile index, ragged edges", y, x * 2, "exact"
    yield "num_tiles(0), num_tiles(-1)", n, np.array([3, 3], np.int32), "exact"
    # Overlapping and gapped windows.
    x = rng.integers(-100, 100, 20).astype(np.int32)
    y = np.zeros(20, np.int32)
    z = np.zeros(20, np.int32)
    n = np.zeros(2, np.int32)
    run("view_windows", 1, arr(x) + arr(y) + arr(z) + arr(n))
    yield "traversal_steps=2 with 4-element tiles (overlapping)", y, _windows(x, 4, 2), "exact"
    yield "traversal_steps=7 with 4-element tiles (gaps, not a power of two)", z, _windows(x, 4, 7, 1), "exact"
    yield "num_tiles with traversal steps: ceil(n / step)", n, np.array([10, 3], np.int32), "exact"
    # Padding modes.
    x = rng.standard_normal(100).astype(np.float32)
    out = np.zeros(3, np.float32)
    run("view_padding", 1, arr(x) + arr(out))
    yield "padding_mode NEG_INF, POS_INF, ZERO of a 128-element view of 100", out, \
        np.array([x.max(), x.min(), x.sum(dtype=np.float32)], np.float32), ("close", 1e-5)
    # 0-d tiles with steps; broadcast stores.
    x = rng.standard_normal((4, 6)).astype(np.float32)
    out = np.zeros(4, np.float32)
    s = np.full((8, 8), np.nan, np.float32)
    run("view_scalars", 1, arr(x) + arr(out) + arr(s))
    yield "0-d tiles with traversal_steps=(2, 3)", out, x[::2, ::3].reshape(-1), "exact"
    want = np.full((8, 8), np.nan, np.float32)
    want[:4, :] = x[1, 1]
    want[4:, :] = x[0, :6].tolist() + [0.0, 0.0]  # a (1, 8) tile of a 6-wide row: padded with zeros
    yield "a 0-d tile and a (1, 8) tile broadcast to (4, 8) tiles", s, want, "exact"
    # 2x2 box filter.
    x = rng.integers(0, 10, (6, 6)).astype(np.int32)
    out = np.zeros(25, np.int32)
    run("view_box_filter", 1, arr(x) + arr(out))
    want = (x[:5, :5] + x[1:, :5] + x[:5, 1:] + x[1:, 1:]).reshape(-1)
    yield "2x2 tiles one element apart (a box filter)", out, want, "exact"
    # Atomics.
    x = rng.standard_normal((32, 16)).astype(np.float32)
    u = rng.standard_normal((1, 16)).astype(np.float32)
    k = rng.integers(0, 1 << 20, (14, 14)).astype(np.int32)
    m = rng.integers(0, 1 << 20, (14, 14)).astype(np.int32)
    want_x = x + u
    want_k = k.copy()
    for b in range(2):
        r = slice(6 * b, 6 * b + 8)
        want_k[r, r] ^= m[r, r]
    want_k[0:8, 6:14] = np.maximum(want_k[0:8, 6:14], 3)
    run("view_atomics", 2, arr(x) + arr(u) + arr(k) + arr(m))
    yield "atomic_store_add of a (1, 16) update broadcast to (16, 16) tiles", x, want_x, ("close", 1e-6)
    yield "atomic_store_xor with traversal steps, atomic_store_max of a number", k, want_k, "exact"
    # Constant strides and extents.
    buf = rng.standard_normal((4, 10)).astype(np.float16)
    x = buf[:, :8]
    out = np.zeros((4, 8), np.float16)
    info = np.zeros(2, np.int32)
    run("static_strides", 1, arr(x) + arr(out) + arr(info))
    yield "a load from an array of constant row stride 10", out, x, "exact"
    yield "x.strides[0] (a constant), x.shape[1] (run time)", info, np.array([10, 8], np.int32), "exact"
