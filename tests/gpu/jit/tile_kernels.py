"""Tile kernels for run_jit_tests.py, in cuTile's dialect through `import pykc.tile as ct`
(`import cuda.tile as ct` under python -m pykc run)."""
import torch

import pykc.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vec_add(a, b, c, TILE: ConstInt):
    """c = a + b, one tile per block."""
    bid = ct.bid(0)
    a_tile = ct.load(a, index=(bid,), shape=(TILE,))
    b_tile = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=a_tile + b_tile)


@ct.kernel
def scale_rows(x, out, s: float, TM: ConstInt, TN: ConstInt):
    bx = ct.bid(0)
    t = ct.load(x, index=(bx, 0), shape=(TM, TN))
    ct.store(out, index=(bx, 0), tile=t * s)


@ct.kernel
def gather_add_torch_dtypes(a, b, c, TILE: ConstInt):
    """c = a + b through gather/scatter with indices typed by a PyTorch dtype, as
    cuTile's samples/VectorAddition.py writes them; the tail is masked by bounds."""
    bid = ct.bid(0)
    indices = bid * TILE + ct.arange(TILE, dtype=torch.int32)
    ct.scatter(c, indices, ct.gather(a, indices) + ct.gather(b, indices).astype(torch.float32))


@ct.kernel
def rows_by_id(ids, table, out, TILE: ConstInt):
    """out[b, :] = table[ids[b], :] + ids[b + 1000] (zero past the end), the row id read
    as a 0-d tile (`shape=()`), as cuTile's samples/MoE.py reads its expert id."""
    bid = ct.bid(0)
    row = ct.load(ids, index=bid, shape=())
    past = ct.load(ids, index=(bid + 1000,), shape=(), padding_mode=ct.PaddingMode.ZERO)
    t = ct.load(table, index=(row, 0), shape=(1, TILE))
    ct.store(out, index=(bid, 0), tile=t + past)


@ct.kernel
def silu_mul(a, b, out, TILE: ConstInt):
    """out = silu(a) * b written as cuTile's samples/MoE.py writes it: ct.add, ct.mul and
    ct.truediv with flush_to_zero."""
    bid = ct.bid(0)
    ta = ct.load(a, index=(bid,), shape=(TILE,))
    tb = ct.load(b, index=(bid,), shape=(TILE,))
    denom = ct.add(1, ct.exp(-ta), flush_to_zero=True)
    sigmoid_ta = ct.truediv(1.0, denom, flush_to_zero=True, rounding_mode=ct.RoundingMode.APPROX)
    silu_ta = ct.mul(ta, sigmoid_ta, flush_to_zero=True)
    ct.store(out, index=(bid,), tile=ct.sub(ct.mul(silu_ta, tb, flush_to_zero=True), 0.0))


@ct.kernel
def segment_double(x, y, offsets, TILE: ConstInt):
    # Array.slice views at run-time offsets: the view's base is no longer 16-byte aligned
    # even where ct.launch saw aligned tensors, so its loads must not assume it.
    seg = ct.bid(0)
    start = ct.load(offsets, index=(seg,), shape=(1,)).item()
    stop = ct.load(offsets, index=(seg + 1,), shape=(1,)).item()
    xs = x.slice(axis=0, start=start, stop=stop)
    ys = y.slice(axis=0, start=start, stop=stop)
    for i in range(ct.cdiv(stop - start, TILE)):
        t = ct.load(xs, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(ys, index=(i,), tile=t * 2)


@ct.kernel
def list_sum(xs, out, scale: ct.ScalarInt64, TILE: ConstInt):
    """out = (xs[0] + ... + xs[-1]) * scale: a Python list of tensors (cuTile's grouped
    GEMM passes lists) and an int64 scalar."""
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(len(xs)):
        acc = acc + ct.load(xs[i], index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(bid,), tile=acc * scale)
