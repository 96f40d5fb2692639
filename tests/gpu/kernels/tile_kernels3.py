"""Tile kernels, third file (docs/TILE.md, "Gather and scatter"): `ct.gather` and
`ct.scatter` on 1-D and 2-D arrays, with broadcast index tiles ((M, 1) x (1, N)),
out-of-bounds indices (negative and too large) under check_bounds, `mask=`,
`padding_value=` as a scalar and as a tile, strided views, scalar indices, float16,
float32 and int32. Checked by tests/gpu/cases/tile_cases3.py on the GPU and by
tests/tile_sim/tile_sim.py on the CPU.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


# ------------------------------------------------------------------ 1-D gather

# y[i] = x[idx[i]] (0 where idx[i] is outside x), one index tile per block.
def gather_block(x, idx, y, TILE):
    pid = ct.bid(0)
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=ct.gather(x, i))


@ct.kernel
def gather_f32(x: "float32[:]", idx: "int32[::1]", y: "float32[::1]", TILE: ConstInt = 256):
    gather_block(x, idx, y, TILE)


@ct.kernel
def gather_f16(x: "float16[:]", idx: "int64[::1]", y: "float16[::1]", TILE: ConstInt = 1024):
    gather_block(x, idx, y, TILE)


@ct.kernel
def gather_i32(x: "int32[:]", idx: "int32[::1]", y: "int32[::1]", TILE: ConstInt = 64):
    gather_block(x, idx, y, TILE)


# The brief's layer-norm style: a per-channel parameter gathered by a channel tile
# computed from the element offsets, and a gather through indices made safe with
# ct.where (check_bounds=False: every index is inside).
@ct.kernel
def gather_channels(x: "float32[::1]", mean_ptr: "float32[::1]", y: "float32[::1]",
                    C: "int32", TILE: ConstInt = 512):
    pid = ct.bid(0)
    offsets = pid * TILE + ct.arange(TILE, dtype=ct.int32)
    channel = offsets % C
    mean = ct.gather(mean_ptr, channel)
    n = x.shape[0]
    inside = offsets < n
    safe = ct.where(inside, offsets, ct.zeros((TILE,), dtype=ct.int32))
    x0 = ct.gather(x, safe, check_bounds=False)
    ct.store(y, index=(pid,), tile=ct.where(inside, x0 - mean, 0.0))


# ------------------------------------------------------------------ 2-D gather

# out[r, c] = x[rows[r], cols[c]] for a (TM, 1) row tile and a (1, TN) column tile:
#   p  with padding_value=-1.0 (a scalar),
#   q  with mask (rows[r] + cols[c]) % 3 != 0 and the default padding 0,
#   s  with a (1, TN) padding tile (100 + column number) and the mask.
@ct.kernel
def gather_2d(x: "float32[:, :]", rows: "int32[::1]", cols: "int32[::1]", p: "float32[:, ::1]",
              q: "float32[:, ::1]", s: "float32[:, ::1]", TM: ConstInt = 16, TN: ConstInt = 32):
    bm = ct.bid(0)
    bn = ct.bid(1)
    r = ct.load(rows, index=(bm,), shape=(TM,))
    c = ct.load(cols, index=(bn,), shape=(TN,))
    row_idx = r[:, None]
    col_idx = c[None, :]
    t = ct.gather(x, (row_idx, col_idx), check_bounds=True, padding_value=-1.0)
    ct.store(p, index=(bm, bn), tile=t)
    keep = (row_idx + col_idx) % 3 != 0
    ct.store(q, index=(bm, bn), tile=ct.gather(x, (row_idx, col_idx), mask=keep))
    pad = (ct.arange(TN, dtype=ct.float32) + 100.0).reshape((1, TN))
    ct.store(s, index=(bm, bn), tile=ct.gather(x, (row_idx, col_idx), mask=keep, padding_value=pad))


# float16 rows picked by a row tile, every column of a block (a scalar column base plus
# an arange), out-of-range rows padded with -2.
@ct.kernel
def gather_rows_f16(x: "float16[:, :]", rows: "int32[::1]", y: "float16[:, ::1]",
                    TM: ConstInt = 32, TN: ConstInt = 64):
    bm = ct.bid(0)
    bn = ct.bid(1)
    r = ct.load(rows, index=(bm,), shape=(TM,)).reshape((TM, 1))
    c = bn * TN + ct.arange(TN, dtype=ct.int32)
    ct.store(y, index=(bm, bn), tile=ct.gather(x, (r, c), padding_value=-2))


# One element by scalar indices, added to a tile.
@ct.kernel
def gather_scalar(x: "int32[:, ::1]", y: "int32[::1]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    v = ct.gather(x, (pid, 3))
    ct.store(y, index=(pid,), tile=ct.arange(TILE, dtype=ct.int32) + v)


# ------------------------------------------------------------------ scatter

# out[idx[i]] = vals[i] where vals[i] > 0 and idx[i] is inside out (float32), and
# out2[idx[i]] = i as float16 (int32 values converted), every in-bounds index.
@ct.kernel
def scatter_1d(out: "float32[:]", out2: "float16[::1]", idx: "int32[::1]", vals: "float32[::1]",
               TILE: ConstInt = 512):
    pid = ct.bid(0)
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    v = ct.load(vals, index=(pid,), shape=(TILE,))
    ct.scatter(out, i, v, mask=v > 0)
    ct.scatter(out2, (i,), pid * TILE + ct.arange(TILE, dtype=ct.int32))


# out[rows[r], cols[c]] = src tile (int32) for a (TM, 1) x (1, TN) index grid; the
# elements whose source value is negative are skipped; out2 gets the scalar 7 at the
# same places without a mask, out3 a (TN,) row of column numbers broadcast over rows.
@ct.kernel
def scatter_2d(out: "int32[:, :]", out2: "int32[:, ::1]", out3: "float32[:, :]",
               rows: "int32[::1]", cols: "int32[::1]", src: "int32[:, ::1]",
               TM: ConstInt = 16, TN: ConstInt = 16):
    bm = ct.bid(0)
    bn = ct.bid(1)
    r = ct.load(rows, index=(bm,), shape=(TM,))[:, None]
    c = ct.load(cols, index=(bn,), shape=(TN,))[None, :]
    t = ct.load(src, index=(bm, bn), shape=(TM, TN))
    ct.scatter(out, (r, c), t, mask=t >= 0)
    ct.scatter(out2, (r, c), 7)
    ct.scatter(out3, (r, c), ct.arange(TN, dtype=ct.int32), check_bounds=True)


# One element per block by a scalar index: out[pid * 2] = pid + 0.5.
@ct.kernel
def scatter_scalar(out: "float32[::1]"):
    pid = ct.bid(0)
    ct.scatter(out, pid * 2, pid + 0.5)
