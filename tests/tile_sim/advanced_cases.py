"""The kernels of tests/gpu/kernels/tile_kernels12.py (advanced indexing, tuple-held
gather/scatter indices) with NumPy references, shared by tests/tile_sim/tile_sim.py (CPU) and
tests/gpu/cases/tile_cases12.py.

`advanced_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"gather_rows": (16, 8), "scatter_rows": (8, 4), "paged_pages": (4, 8, 32), "tuple_indices": (1, 32),
          "scaled_add_kwonly": (2.0, 64), "mma_mixed_int8": (16, 16, 32)}


def advanced_cases(run, arr, rng):
    # Rows gathered out of order (repeats, one past the end), a column window past the edge.
    x = rng.standard_normal((10, 12)).astype(np.float32)
    rows = np.array([9, 0, 0, 4, 10, 3, 2, 1, 8, 7, 6, 5, -1, 4, 4, 9, 1, 2, 3], np.int32)
    nblocks = -(-rows.size // 16)
    for col in (0, 3, 7):
        y = np.full((nblocks * 16, 8), np.nan, np.float32)
        run("gather_rows", nblocks, arr(x) + arr(rows) + arr(y) + [col])
        want = np.zeros_like(y)
        for r in range(nblocks * 16):
            src = int(rows[r]) if r < rows.size else 0
            for c in range(8):
                if 0 <= src < 10 and col + c < 12:
                    want[r, c] = x[src, col + c]
        yield f"load_advanced_indexing rows {rows.tolist()} col {col} (zero padding)", y, want, "exact"
    # Rows scattered in any order; rows and columns outside y are skipped.
    for rows_s, col in (([7, 5, 3, 1, 0, 2, 4, 6], 0), ([1, 9, 2, -4, 3, 8, 5, 4], 3)):
        rows_s = np.array(rows_s, np.int32)
        y = np.full((8, 6), -1, np.int32)
        run("scatter_rows", 1, arr(y) + arr(rows_s) + [col])
        want = np.full((8, 6), -1, np.int32)
        for r in range(8):
            for c in range(4):
                if 0 <= rows_s[r] < 8 and col + c < 6:
                    want[rows_s[r], col + c] = 100 * r + c
        yield f"store_advanced_indexing rows {rows_s.tolist()} col {col}", y, want, "exact"
    # TileGym's paged gather: four pages of a 4-D cache, a token window, one head.
    cache = rng.standard_normal((6, 16, 3, 32)).astype(np.float16)
    table = np.array([5, 0, 3, 7], np.int32)
    for token, head in ((0, 1), (12, 2)):
        out = np.full((32, 32), np.nan, np.float32)
        run("paged_pages", 1, arr(cache) + arr(table) + arr(out) + [token, head])
        want = np.zeros((4, 8, 32), np.float32)
        for p, page in enumerate(table):
            for t in range(8):
                if page < 6 and token + t < 16:
                    want[p, t] = cache[page, token + t, head].astype(np.float32)
        yield f"load_advanced_indexing 4-D pages {table.tolist()} token {token} head {head}", out, \
            want.reshape(32, 32), "exact"
    # Indices held in a tuple variable, and a None-bound name rebound at compile time.
    x = rng.standard_normal((40, 9)).astype(np.float32)
    out = np.full((40, 9), np.nan, np.float32)
    run("tuple_indices", 2, arr(x) + arr(out))
    want = np.full((40, 9), np.nan, np.float32)
    for i in range(40):
        j = (i * 7 + 3) % 9
        want[i, j] = x[i, j] * 2 + 1
    yield "gather/scatter with `where = (i, j)`; `bias = None` then rebound", out, want, "exact-nan"
    # Keyword-only parameters in declaration order; ct.num_tiles with a 0-d tile shape.
    a = rng.standard_normal(200).astype(np.float32)
    b = rng.standard_normal(200).astype(np.float32)
    c = np.full(200, np.nan, np.float32)
    counts = np.full(2, -1, np.int32)
    run("scaled_add_kwonly", -(-200 // 64), arr(a) + arr(b) + arr(c) + arr(counts) + [5])
    yield "keyword-only parameters: C = A * 2.0 + B + 5", c, a * np.float32(2) + b + np.float32(5), ("close", 1e-6)
    yield "ct.num_tiles(A, 0, (64,)) and with shape=()", counts, np.array([4, 200], np.int32), "exact"
    # ct.mma of int8 by uint8 into int32 (ragged edges padded with zeros).
    a = rng.integers(-128, 128, (40, 70)).astype(np.int8)
    b = rng.integers(0, 256, (70, 24)).astype(np.uint8)
    c = rng.integers(-1000, 1000, (40, 24)).astype(np.int32)
    want = c + a.astype(np.int64) @ b.astype(np.int64)
    run("mma_mixed_int8", (3, 2), arr(a) + arr(b) + arr(c))
    yield "ct.mma int8 x uint8 -> int32, 40x24x70", c, want.astype(np.int32), "exact"
