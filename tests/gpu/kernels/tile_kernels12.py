"""Tile kernels, twelfth file: advanced indexing (issue 22; cuTile's
ct.load_advanced_indexing / ct.store_advanced_indexing with ct.Slice, as TileGym's paged
prefill attention loads pages), ct.gather/ct.scatter indices held in a tuple variable, and a
name bound to None before a compile-time branch rebinds it. Checked on the CPU by
tests/tile_sim (advanced_cases.py) and on the GPU by tests/gpu/cases/tile_cases12.py, both
against NumPy.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gather_rows(x: "float32[:, ::1]", rows: "int32[::1]", y: "float32[:, ::1]", col: "int32",
                ROWS: ConstInt = 16, COLS: ConstInt = 8):
    """y[r, :] = x[rows[r], col:col + COLS] for the block's ROWS rows, zero outside x."""
    r = ct.bid(0) * ROWS + ct.arange(ROWS, dtype=ct.int32)
    idx = ct.gather(rows, r, padding_value=0)
    t = ct.load_advanced_indexing(x, (idx, ct.Slice(col, COLS)), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0), 0), tile=t)


@ct.kernel
def scatter_rows(y: "int32[:, ::1]", rows: "int32[::1]", col: "int32", ROWS: ConstInt = 8,
                 COLS: ConstInt = 4):
    """y[rows[r], col:col + COLS] = 100 * r + c; out-of-bounds rows and columns are skipped."""
    r = ct.arange(ROWS, dtype=ct.int32)
    c = ct.arange(COLS, dtype=ct.int32)
    value = r[:, None] * 100 + c[None, :]
    ct.store_advanced_indexing(y, (ct.gather(rows, r), ct.Slice(col, COLS)), value)


@ct.kernel
def paged_pages(cache: "float16[:, :, :, ::1]", table: "int32[::1]", out: "float32[:, ::1]",
                token: "int32", head: "int32", PAGES: ConstInt = 4, TOKENS: ConstInt = 8,
                D: ConstInt = 32):
    """TileGym's paged load: pages table[0..PAGES) of cache[page, token:token+TOKENS, head, :],
    flattened to (PAGES * TOKENS, D)."""
    p = ct.arange(PAGES, dtype=ct.int32)
    ids = ct.gather(table, p, padding_value=0)
    four = ct.load_advanced_indexing(cache, (ids, ct.Slice(token, TOKENS), ct.Slice(head, 1), ct.Slice(0, D)),
                                     padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(0, 0), tile=ct.reshape(four, (PAGES * TOKENS, D)).astype(ct.float32))


@ct.kernel
def tuple_indices(x: "float32[:, ::1]", out: "float32[:, ::1]", HAS_BIAS: ConstInt = 1, TILE: ConstInt = 32):
    """out[i, perm(i)] = x[i, perm(i)] * 2 (+1 with HAS_BIAS) through indices held in a
    tuple variable; `bias = None` until a compile-time branch rebinds it."""
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    j = (i * 7 + 3) % x.shape[1]
    where = (i, j)
    bias = None
    if HAS_BIAS:
        bias = ct.full((TILE,), 1.0, dtype=ct.float32)
    v = ct.gather(x, where) * 2
    if HAS_BIAS:
        v = v + bias
    ct.scatter(out, where, v)


@ct.kernel
def scaled_add_kwonly(A: "float32[::1]", B: "float32[::1]", C: "float32[::1]", counts: "int32[::1]", *,
                      shift: "int32", scale_a: ct.Constant[float] = 2.0, TILE: ct.Constant[int] = 64):
    """C = A * scale_a + B + shift through keyword-only parameters (cuTile's JAX tests), and
    counts = [num_tiles of A in TILE tiles, num_tiles with a 0-d tile shape] from block 0."""
    bid = ct.bid(0)
    a = ct.load(A, index=(bid,), shape=(TILE,))
    b = ct.load(B, index=(bid,), shape=(TILE,))
    ct.store(C, index=(bid,), tile=a * scale_a + b + shift)
    if bid == 0:
        ct.scatter(counts, 0, ct.num_tiles(A, axis=0, shape=(TILE,)))
        ct.scatter(counts, 1, ct.num_tiles(A, axis=0, shape=()))


@ct.kernel
def mma_mixed_int8(A: "int8[:, ::1]", B: "uint8[:, ::1]", C: "int32[:, ::1]", TM: ConstInt = 16,
                   TN: ConstInt = 16, TK: ConstInt = 32):
    """C += A @ B for int8 A and uint8 B (cuTile's test_mma_mixed_int_uint), one tile a block."""
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.load(C, index=(i, j), shape=(TM, TN))
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(i, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, j), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(i, j), tile=acc)
