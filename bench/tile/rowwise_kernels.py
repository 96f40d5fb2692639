"""The kernels bench/tile/rowwise.py times, as cuTile's samples write them: a (B, N) tile a
block, reduced along axis 1 with keepdims and broadcast back (pykc.tile compiles them on
first launch)."""
import pykc.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x, y, B: ConstInt, N: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.NEG_INF)
    t = ct.astype(t, ct.float32)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(bid, 0), tile=ct.astype(num / den, y.dtype))


@ct.kernel
def layer_norm(x, w, b, y, eps: float, B: ConstInt, N: ConstInt):
    bid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) / N
    centered = t - mean
    var = ct.sum(centered * centered, axis=1, keepdims=True) / N
    rstd = 1 / ct.sqrt(var + eps)
    wt = ct.astype(ct.load(w, index=(0,), shape=(N,)), ct.float32)
    bt = ct.astype(ct.load(b, index=(0,), shape=(N,)), ct.float32)
    out = centered * rstd * ct.reshape(wt, (1, N)) + ct.reshape(bt, (1, N))
    ct.store(y, index=(bid, 0), tile=ct.astype(out, y.dtype))


@ct.kernel
def rms_norm(x, w, y, eps: float, B: ConstInt, N: ConstInt):
    bid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    rstd = ct.rsqrt(ct.sum(t * t, axis=1, keepdims=True) / N + eps)
    wt = ct.astype(ct.load(w, index=(0,), shape=(N,)), ct.float32)
    ct.store(y, index=(bid, 0), tile=ct.astype(t * rstd * ct.reshape(wt, (1, N)), y.dtype))
