"""Tile kernels, sixth file: cuTile's ct.extract and ct.cat (issue 22; cuTile's FFT sample
splits interleaved real/imaginary parts with them and joins them back) and matrix products
with batch dimensions (the FFT's 2-D x 3-D products). Sub-tiles at
constant and run-time indices, a 0-d extract (a scalar), cat along the last and the first
axis, float32 and float16. Checked on the CPU by tests/tile_sim (shape_cases.py) and on the
GPU by tests/gpu/cases/tile_cases6.py, both against NumPy.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def split_join(x: "float32[:, :, ::1]", re: "float32[:, ::1]", im: "float32[:, ::1]",
               y: "float32[:, :, ::1]", ROWS: ConstInt = 2, N: ConstInt = 64):
    pid = ct.bid(0)
    ri = ct.load(x, index=(pid, 0, 0), shape=(ROWS, N, 2))
    r = ct.extract(ri, index=(0, 0, 0), shape=(ROWS, N, 1))
    i = ct.extract(ri, index=(0, 0, 1), shape=(ROWS, N, 1))
    ct.store(re, index=(pid, 0), tile=ct.reshape(r, (ROWS, N)))
    ct.store(im, index=(pid, 0), tile=ct.reshape(i, (ROWS, N)))
    ct.store(y, index=(pid, 0, 0), tile=ct.cat((i, r * 2), axis=-1))


@ct.kernel
def pick(x: "float32[::1]", k: "int32", out: "float32[::1]", TILE: ConstInt = 256, SUB: ConstInt = 64):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    part = ct.extract(t, index=(k,), shape=(SUB,))
    first = ct.extract(t, index=(pid,), shape=())
    ct.store(out, index=(pid,), tile=part + first)


@ct.kernel
def stack_rows(a: "float16[:, ::1]", b: "float16[:, ::1]", out: "float16[:, ::1]",
               M: ConstInt = 16, K: ConstInt = 32):
    pid = ct.bid(0)
    ta = ct.load(a, index=(pid, 0), shape=(M, K))
    tb = ct.load(b, index=(pid, 0), shape=(M, K))
    ct.store(out, index=(pid, 0), tile=ct.cat((ta, tb), 0))


@ct.kernel
def bmm_broadcast(w: "float32[:, ::1]", x: "float32[:, :, ::1]", out: "float32[:, :, ::1]",
                  B: ConstInt = 2, M: ConstInt = 4, N: ConstInt = 8):
    pid = ct.bid(0)
    tw = ct.load(w, index=(0, 0), shape=(M, M))
    tx = ct.load(x, index=(pid, 0, 0), shape=(B, M, N))
    ct.store(out, index=(pid, 0, 0), tile=ct.matmul(tw, tx))


@ct.kernel
def bmm_f16(a: "float16[:, :, ::1]", b: "float16[:, :, ::1]", out: "float16[:, :, ::1]",
            B: ConstInt = 2, M: ConstInt = 8, K: ConstInt = 4, N: ConstInt = 16):
    pid = ct.bid(0)
    ta = ct.load(a, index=(pid, 0, 0), shape=(B, M, K))
    tb = ct.load(b, index=(pid, 0, 0), shape=(B, K, N))
    ct.store(out, index=(pid, 0, 0), tile=ta @ tb)
