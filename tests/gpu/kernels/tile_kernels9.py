"""Tile kernels, ninth file: arrays held in variables and cuTile's `Array.slice` (issue 22;
TileGym's ragged GEMMs and ragged-batch attention slice their inputs per segment and
load tiles from the views). A view from run-time bounds along the first and the last
axis, keyword and positional arguments, a negative axis, a view chosen in a run-time
branch, a view passed to a helper, a plain alias, and a ragged matmul (one segment of
rows per block, as flashinfer's ragged_bmm). Checked on the CPU by tests/tile_sim
(view_cases.py) and on the GPU by tests/gpu/cases/tile_cases9.py, both against NumPy.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def segment_scale(x: "float32[:, ::1]", y: "float32[:, ::1]", offsets: "int32[::1]",
                  TILE: ConstInt = 16):
    """Rows offsets[b]..offsets[b + 1] of x, times 2 plus the segment's number, into y."""
    seg = ct.bid(0)
    start = ct.load(offsets, index=(seg,), shape=(1,)).item()
    stop = ct.load(offsets, index=(seg + 1,), shape=(1,)).item()
    xs = x.slice(axis=0, start=start, stop=stop)
    ys = y.slice(0, start, stop)
    for i in range(ct.cdiv(stop - start, TILE)):
        t = ct.load(xs, index=(i, 0), shape=(TILE, 8), padding_mode=ct.PaddingMode.ZERO)
        ct.store(ys, index=(i, 0), tile=t * 2 + seg)


def add_window(v, out, row, W: ConstInt):
    # A helper that takes a view.
    t = ct.load(v, index=(row, 0), shape=(1, W), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(row, 0), tile=t + 1)


@ct.kernel
def column_window(x: "float32[:, ::1]", out: "float32[:, ::1]", first: "int32", W: ConstInt = 16):
    """Columns first..first + W of each row (a view along the last axis, cut at the row's
    end: loads pad zeros past the view), plus one."""
    row = ct.bid(0)
    v = x.slice(-1, first, ct.minimum(first + W, x.shape[1]))
    add_window(v, out, row, W)


@ct.kernel
def chosen_view(x: "float32[::1]", out: "float32[::1]", flag: "int32"):
    """x[8:40] when flag > 0, else x[0:32]: a view assigned in a run-time branch."""
    if flag > 0:
        v = x.slice(axis=0, start=8, stop=40)
    else:
        v = x.slice(axis=0, start=0, stop=32)
    w = v
    ct.store(out, index=(0,), tile=ct.load(w, index=(0,), shape=(32,)))


@ct.kernel
def ragged_matmul(a: "float32[:, ::1]", b: "float32[:, :, ::1]", c: "float32[:, ::1]",
                  m_indptr: "int32[::1]", BM: ConstInt = 16, BN: ConstInt = 16, BK: ConstInt = 16):
    """c[m0:m1] = a[m0:m1] @ b[q] for segment q = bid(1) with rows m_indptr[q]..m_indptr[q+1];
    bid(0) is the tile of rows within the segment; every column tile in turn."""
    pid_m, q = ct.bid(0), ct.bid(1)
    m_start = ct.load(m_indptr, index=(q,), shape=(1,)).item()
    m_end = ct.load(m_indptr, index=(q + 1,), shape=(1,)).item()
    if pid_m * BM < m_end - m_start:
        ai = a.slice(axis=0, start=m_start, stop=m_end)
        ci = c.slice(axis=0, start=m_start, stop=m_end)
        for pid_n in range(ct.num_tiles(ci, axis=1, shape=(BM, BN))):
            acc = ct.full((BM, BN), 0.0, dtype=ct.float32)
            for k in range(ct.num_tiles(ai, axis=1, shape=(BM, BK))):
                at = ct.load(ai, index=(pid_m, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
                bt = ct.load(b, index=(q, k, pid_n), shape=(1, BK, BN), padding_mode=ct.PaddingMode.ZERO)
                acc = acc + at @ ct.reshape(bt, (BK, BN))
            ct.store(ci, index=(pid_m, pid_n), tile=acc)
