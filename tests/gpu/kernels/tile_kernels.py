"""Tile kernels in cuTile Python's dialect (`import cuda.tile as ct`, docs/TILE.md),
written as cuTile's samples write them. pykc needs the array types, which cuTile learns
at launch: they are annotations here (`--sig` works too). Constant parameters take
their defaults (or `--const NAME=VALUE`). Checked by tests/gpu/cases/tile_cases.py.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


# ---------------------------------------------------------------------------- vector add

@ct.kernel
def vector_add(a: "float32[::1]", b: "float32[::1]", c: "float32[::1]",
               tile_size: ConstInt = 1024):
    pid = ct.bid(0)
    a_tile = ct.load(a, index=(pid,), shape=(tile_size,))
    b_tile = ct.load(b, index=(pid,), shape=(tile_size,))
    result = a_tile + b_tile
    ct.store(c, index=(pid,), tile=result)


@ct.kernel
def vector_add_f16(a: "float16[::1]", b: "float16[::1]", c: "float16[::1]",
                   tile_size: ConstInt = 2048):
    pid = ct.bid(0)
    a_tile = ct.load(a, index=(pid,), shape=(tile_size,))
    b_tile = ct.load(b, index=(pid,), shape=(tile_size,))
    ct.store(c, index=(pid,), tile=a_tile + b_tile)


# A tile smaller than the CTA (32 elements, 64 threads): some threads hold nothing.
@ct.kernel(occupancy=2)
def vector_add_small(a: "float32[::1]", b: "float32[::1]", c: "float32[::1]",
                     tile_size: ConstInt = 32):
    pid = ct.bid(0)
    a_tile = ct.load(a, index=(pid,), shape=(tile_size,))
    b_tile = ct.load(b, index=(pid,), shape=(tile_size,))
    ct.store(c, index=(pid,), tile=a_tile + b_tile * 2)


# ---------------------------------------------------------------------------- softmax

# One row per block; the row fits the tile (padding -inf beyond the row's end).
@ct.kernel
def softmax(x: "float32[:, ::1]", y: "float32[:, ::1]", TILE_N: ConstInt = 1024):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=num / den)


@ct.kernel
def softmax_f16(x: "float16[:, ::1]", y: "float16[:, ::1]", TILE_N: ConstInt = 2048):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(num / den).astype(y.dtype))


# Several rows per block: reductions along axis 1 into a (ROWS, 1) tile, broadcast back.
@ct.kernel
def softmax_rows(x: "float32[:, ::1]", y: "float32[:, ::1]", ROWS: ConstInt = 4,
                 TILE_N: ConstInt = 256):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(ROWS, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=-1, keepdims=True)
    ct.store(y, index=(bid, 0), tile=num / den)


# ---------------------------------------------------------------------------- layer norm

# cuTile's LayerNorm sample shape: one row per block, loops over column tiles.
@ct.kernel
def layer_norm(X: "float32[:, ::1]", W: "float32[::1]", B: "float32[::1]",
               Y: "float32[:, ::1]", eps: "float32", TILE_N: ConstInt = 512):
    bid_m = ct.bid(0)
    num_tiles = ct.num_tiles(X, axis=1, shape=(1, TILE_N))
    N = X.shape[1]

    mean = ct.full((1, TILE_N), 0, dtype=ct.float32)
    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=ct.PaddingMode.ZERO)
        mean += tx
    mean = ct.sum(mean, axis=1) / N

    var = ct.full((1, TILE_N), 0, dtype=ct.float32)
    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=ct.PaddingMode.ZERO)
        mask = (j * TILE_N + ct.arange(TILE_N, dtype=ct.int32)) < N
        centered_tx = ct.where(mask, tx - mean, 0)
        var += centered_tx ** 2
    var = ct.sum(var, axis=1) / N
    rstd = 1 / ct.sqrt(var + eps)

    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=ct.PaddingMode.ZERO)
        tw = ct.load(W, index=(j,), shape=(TILE_N,), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(B, index=(j,), shape=(TILE_N,), padding_mode=ct.PaddingMode.ZERO)
        ty = (tx - mean) * rstd
        ty = ty * tw + tb
        ct.store(Y, index=(bid_m, j), tile=ty.astype(Y.dtype))


# ---------------------------------------------------------------------------- misc ops

# Reductions along axis 0 of a (TM, TN) tile, `minimum`, `where`, a 0-d reduction.
@ct.kernel
def col_stats(x: "float32[:, ::1]", sums: "float32[::1]", maxs: "float32[::1]",
              mins: "float32[::1]", total: "float32[::1]", TM: ConstInt = 64,
              TN: ConstInt = 32):
    bid = ct.bid(0)
    t = ct.load(x, index=(0, bid), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(sums, index=(bid,), tile=ct.sum(t, axis=0))
    ct.store(maxs, index=(bid,), tile=ct.max(t, axis=0))
    ct.store(mins, index=(bid,), tile=ct.min(ct.minimum(t, 0.5), axis=0))
    pos = ct.where(t > 0, t, 0.0)
    ct.store(total, index=(bid,), tile=ct.full((1,), 0, ct.float32) + ct.sum(pos))


# Integers: Python's floor division and modulo, arange, a grid-stride loop over tiles.
@ct.kernel
def int_ops(a: "int32[::1]", out: "int32[::1]", TILE: ConstInt = 256):
    for pid in range(ct.bid(0), ct.num_tiles(a, axis=0, shape=(TILE,)), ct.num_blocks(0)):
        t = ct.load(a, index=(pid,), shape=(TILE,))
        idx = ct.arange(TILE, dtype=ct.int32) + pid * TILE
        ct.store(out, index=(pid,), tile=t // 3 + t % 5 + idx + (t % 7) ** 3)
