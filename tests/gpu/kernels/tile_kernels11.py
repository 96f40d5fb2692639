"""Tile kernels, eleventh file: the row-wise family with several rows per block (issue 23),
written as cuTile's samples write them: softmax, layer norm and RMS norm of a (B, N) tile
reduced along axis 1 with keepdims and broadcast back against the tile, and column sums
and maxima of a (B, N) tile along axis 0 (keepdims or not, broadcast back). float32,
float16 and bfloat16 (computed in float32). Checked on the CPU by tests/tile_sim
(rowwise_cases.py) and on the GPU by tests/gpu/cases/tile_cases11.py, both against NumPy.

The specialisations are the `# pykc-compile:` lines (all combinations of the repeated
--const values; a kernel takes those of its own parameters):
"""
# pykc-compile: --sig softmax(float32[:,::1],float32[:,::1]) --sig softmax(float16[:,::1],float16[:,::1]) --sig softmax(bfloat16[:,::1],bfloat16[:,::1])
# pykc-compile: --sig layer_norm(float32[:,::1],float32[::1],float32[::1],float32[:,::1],float32) --sig layer_norm(float16[:,::1],float16[::1],float16[::1],float16[:,::1],float32)
# pykc-compile: --sig rms_norm(float32[:,::1],float32[::1],float32[:,::1],float32[::1],float32) --sig rms_norm(bfloat16[:,::1],bfloat16[::1],bfloat16[:,::1],float32[::1],float32)
# pykc-compile: --sig column_stats(float32[:,::1],float32[::1],float32[:,::1])
# pykc-compile: --const B=1 --const B=2 --const B=4 --const B=8 --const B=16 --const B=64
# pykc-compile: --const N=128 --const N=1024

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x, y, B: ConstInt, N: ConstInt):
    """cuTile's softmax sample: B rows per block, padding -inf beyond the rows' ends."""
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.NEG_INF)
    t = ct.astype(t, ct.float32)
    row_max = ct.max(t, axis=1, keepdims=True)
    num = ct.exp(t - row_max)
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(bid, 0), tile=ct.astype(num / den, y.dtype))


@ct.kernel
def layer_norm(x, w, b, y, eps, B: ConstInt, N: ConstInt):
    """Layer norm of B rows a block (TileGym's form): the mean and variance by row sums,
    each an elementwise expression of a (B, 1) reduction, broadcast back."""
    bid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    n = x.shape[1]
    mean = ct.sum(t, axis=1, keepdims=True) / n
    mask = ct.arange(N, dtype=ct.int32) < n
    centered = ct.where(mask, t - mean, 0)
    var = ct.sum(centered * centered, axis=1, keepdims=True) / n
    rstd = 1 / ct.sqrt(var + eps)
    wt = ct.astype(ct.load(w, index=(0,), shape=(N,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    bt = ct.astype(ct.load(b, index=(0,), shape=(N,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    out = centered * rstd * ct.reshape(wt, (1, N)) + ct.reshape(bt, (1, N))
    ct.store(y, index=(bid, 0), tile=ct.astype(out, y.dtype))


@ct.kernel
def rms_norm(x, w, y, rstd_out, eps, B: ConstInt, N: ConstInt):
    """TileGym's RMS norm: rsqrt of the mean square by row, stored as a (B,) tile too."""
    bid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    x2_sum = ct.sum(t * t, axis=1, keepdims=True)
    n_f32 = ct.full((B, 1), x.shape[1] * 1.0, dtype=ct.float32)
    rsqrt_var = ct.rsqrt(x2_sum / n_f32 + eps)
    ct.store(rstd_out, index=(bid,), tile=ct.reshape(rsqrt_var, (B,)))
    wt = ct.astype(ct.load(w, index=(0,), shape=(N,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(bid, 0), tile=ct.astype(t * rsqrt_var * ct.reshape(wt, (1, N)), y.dtype))


@ct.kernel
def column_stats(x, colsum, centered, B: ConstInt, N: ConstInt):
    """Reductions along axis 0 of a (B, N) tile: column sums (not keepdims) stored, and the
    tile minus its column maxima (keepdims, broadcast back) plus its row sums (axis=-1,
    not keepdims, then [:, None])."""
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(B, N), padding_mode=ct.PaddingMode.ZERO)
    ct.store(colsum, index=(bid,), tile=ct.sum(t, axis=0))
    col_max = ct.max(t, axis=0, keepdims=True)
    rows = ct.sum(t, axis=-1)
    ct.store(centered, index=(bid, 0), tile=t - col_max + rows[:, None])
