"""The kernels of tests/gpu/kernels/tile_kernels6.py (ct.extract, ct.cat, batched matmul) with NumPy
references, shared by tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases6.py.

`shape_cases(run, arr, rng)` yields (what, got, want, "exact"); `run(kernel, grid, args)`
runs a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"split_join": (2, 64), "pick": (256, 64), "stack_rows": (16, 32), "bmm_broadcast": (2, 4, 8),
          "bmm_f16": (2, 8, 4, 16)}


def shape_cases(run, arr, rng):
    # Interleaved real/imaginary parts split by extract, joined back (swapped) by cat.
    rows, n = 6, 64
    x = rng.standard_normal((rows, n, 2)).astype(np.float32)
    re = np.full((rows, n), np.nan, np.float32)
    im = np.full((rows, n), np.nan, np.float32)
    y = np.full((rows, n, 2), np.nan, np.float32)
    run("split_join", rows // 2, arr(x) + arr(re) + arr(im) + arr(y))
    yield "extract real parts (index (0, 0, 0) of (2, 64, 1))", re, x[..., 0], "exact"
    yield "extract imaginary parts (index (0, 0, 1))", im, x[..., 1], "exact"
    yield "cat((imag, 2 * real), axis=-1)", y, np.stack([x[..., 1], 2 * x[..., 0]], -1), "exact"
    # A run-time sub-tile index (wrapping past the 4 sub-tiles) and a 0-d extract.
    blocks = 4
    x = rng.standard_normal(blocks * 256).astype(np.float32)
    for k in (0, 3, 5):
        out = np.full(blocks * 64, np.nan, np.float32)
        run("pick", blocks, arr(x) + [k] + arr(out))
        want = np.concatenate([x[b * 256 + (k % 4) * 64:b * 256 + (k % 4) * 64 + 64] + x[b * 256 + b]
                               for b in range(blocks)])
        yield f"extract at run-time index {k} plus a 0-d extract", out, want, "exact"
    # cat along the first axis, float16.
    a = rng.standard_normal((32, 32)).astype(np.float16)
    b = rng.standard_normal((32, 32)).astype(np.float16)
    out = np.full((64, 32), np.nan, np.float16)
    run("stack_rows", 2, arr(a) + arr(b) + arr(out))
    want = np.concatenate([a[:16], b[:16], a[16:], b[16:]])
    yield "cat((a, b), 0) of (16, 32) float16 tiles", out, want, "exact"
    # Batched products: a 2-D matrix times a batch (broadcast), and batch times batch in
    # float16. Small integers: every sum is exact, whatever the order.
    w = rng.integers(-2, 3, (4, 4)).astype(np.float32)
    x = rng.integers(-2, 3, (6, 4, 8)).astype(np.float32)
    out = np.full((6, 4, 8), np.nan, np.float32)
    run("bmm_broadcast", 3, arr(w) + arr(x) + arr(out))
    yield "matmul((4, 4), (2, 4, 8)) broadcast over the batch", out, np.matmul(w, x), "exact"
    a = rng.integers(-2, 3, (4, 8, 4)).astype(np.float16)
    b = rng.integers(-2, 3, (4, 4, 16)).astype(np.float16)
    out = np.full((4, 8, 16), np.nan, np.float16)
    run("bmm_f16", 2, arr(a) + arr(b) + arr(out))
    yield "(2, 8, 4) @ (2, 4, 16) float16", out, np.matmul(a, b), "exact"
