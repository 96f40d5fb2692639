"""The kernels bench/gpu/tile_bandwidth.py times: vector add and row softmax as in
tests/gpu/kernels/tile_kernels.py (cuTile's samples), compiled once per tile size:

    pykc compile bench/gpu/tile_bandwidth_kernels.py --arch sm_90 -o ROOT/tile_bandwidth_kernels \\
        --const TILE=1024 --const TILE=2048 --const TILE=4096
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vector_add(a: "float32[::1]", b: "float32[::1]", c: "float32[::1]", TILE: ConstInt = 1024):
    pid = ct.bid(0)
    a_tile = ct.load(a, index=(pid,), shape=(TILE,))
    b_tile = ct.load(b, index=(pid,), shape=(TILE,))
    ct.store(c, index=(pid,), tile=a_tile + b_tile)


@ct.kernel
def vector_add_f16(a: "float16[::1]", b: "float16[::1]", c: "float16[::1]", TILE: ConstInt = 2048):
    pid = ct.bid(0)
    a_tile = ct.load(a, index=(pid,), shape=(TILE,))
    b_tile = ct.load(b, index=(pid,), shape=(TILE,))
    ct.store(c, index=(pid,), tile=a_tile + b_tile)


# One row per block; the row fits the tile (padding -inf beyond the row's end).
@ct.kernel
def softmax(x: "float32[:, ::1]", y: "float32[:, ::1]", TILE: ConstInt = 1024):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=num / den)


@ct.kernel
def softmax_f16(x: "float16[:, ::1]", y: "float16[:, ::1]", TILE: ConstInt = 2048):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(num / den).astype(y.dtype))


# The same with cuTile's approximate exp and division (rounding_mode=APPROX): what a
# user who wants a fast softmax writes.
@ct.kernel
def softmax_f16_approx(x: "float16[:, ::1]", y: "float16[:, ::1]", TILE: ConstInt = 2048):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max, rounding_mode=ct.RoundingMode.APPROX)
    den = ct.sum(num, axis=1, keepdims=True)
    q = ct.truediv(num, den, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(y, index=(row, 0), tile=q.astype(y.dtype))
