"""Fused multi-head attention (flash attention, forward) in cuTile Python's dialect,
written as cuTile's samples/AttentionFMHA.py writes its kernel: unannotated arrays beside
`qk_scale: float` / `input_pos: int` (the types come from `--sig`), Constant[int] and
Constant[bool] parameters, NumPy dtype spellings, K read transposed with `order=`, the
online softmax in base 2 with `ct.exp2(..., flush_to_zero=True)`, a boolean mask tile for
causal and ragged blocks, and the final `ct.truediv(..., rounding_mode=APPROX)`.
Checked against a float64 NumPy reference by tests/gpu/cases/tile_attention_cases.py.

Q is (batch, heads, q_len, Dqk), K is (batch, kv_heads, k_len, Dqk), V is (batch,
kv_heads, k_len, Dv), Out is (batch, heads, q_len, Dv); heads = kv_heads * GROUP
(grouped-query attention). Grid: (cdiv(q_len, TILE_M), batch * heads). Query row m
attends to keys n <= m + input_pos when CAUSAL; EVEN_K promises k_len % TILE_N == 0.

The specialisations are the `# pykc-compile:` lines (tests/gpu/build_artifacts.sh passes
them to `pykc compile`; all combinations of the repeated --const values are compiled):
"""
# pykc-compile: --sig attn_fwd(float16[:,:,:,::1],float16[:,:,:,::1],float16[:,:,:,::1],float16[:,:,:,::1],float32,int32)
# pykc-compile: --const Dqk=64 --const Dqk=128 --const Dv=64 --const H=4 --const TILE_M=128 --const TILE_N=64
# pykc-compile: --const GROUP=1 --const GROUP=2 --const CAUSAL=0 --const CAUSAL=1 --const EVEN_K=0 --const EVEN_K=1

import math

import numpy as np

import cuda.tile as ct
from cuda.tile import RoundingMode as RMd

# exp(x) == exp2(x * LOG2_E): the scores are scaled once into base 2.
LOG2_E = 1.0 / math.log(2)
ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel(occupancy=2)
def attn_fwd(Q, K, V, Out, qk_scale: float, input_pos: int,
             Dqk: ConstInt, Dv: ConstInt, H: ConstInt, TILE_M: ConstInt, TILE_N: ConstInt,
             GROUP: ConstInt, CAUSAL: ConstBool, EVEN_K: ConstBool):
    m_block = ct.bid(0)
    bh = ct.bid(1)
    b = bh // H
    h = bh % H
    kv_h = h // GROUP
    scale2 = qk_scale * LOG2_E

    # Absolute positions of this block's query rows, as a (TILE_M, 1) column.
    rows = m_block * TILE_M + ct.arange(TILE_M, dtype=np.int32)
    rows += input_pos
    rows = rows[:, None]
    cols = ct.arange(TILE_N, dtype=np.int32)[None, :]

    row_max = ct.full((TILE_M, 1), -np.inf, dtype=np.float32)
    row_sum = ct.full((TILE_M, 1), 0.0, dtype=np.float32)
    acc = ct.full((TILE_M, Dv), 0.0, dtype=np.float32)
    q = ct.load(Q, index=(b, h, m_block, 0), shape=(1, 1, TILE_M, Dqk)).reshape((TILE_M, Dqk))

    k_len = K.shape[2]
    last_row = input_pos + (m_block + 1) * TILE_M
    if CAUSAL:
        # Key blocks past the diagonal are skipped; those from the diagonal on are masked.
        first_masked = (input_pos + m_block * TILE_M) // TILE_N
        first_masked = min(first_masked, k_len // TILE_N)
        n_blocks = ct.cdiv(min(last_row, k_len), TILE_N)
    else:
        n_blocks = ct.cdiv(k_len, TILE_N)
        first_masked = k_len // TILE_N

    for j in range(0, n_blocks):
        # K^T: a (Dqk, TILE_N) tile read from the row-major (k_len, Dqk) keys.
        kt = ct.load(K, index=(b, kv_h, 0, j), shape=(1, 1, Dqk, TILE_N), order=(0, 1, 3, 2), latency=2)
        kt = kt.reshape((Dqk, TILE_N))
        s = ct.full((TILE_M, TILE_N), 0., dtype=np.float32)
        s = ct.mma(q, kt, s)
        if (CAUSAL or not EVEN_K) and j >= first_masked:
            key = j * TILE_N + cols
            keep = ct.full((TILE_M, TILE_N), True, dtype=np.bool_)
            if not EVEN_K:
                keep = keep & (key < k_len)
            if CAUSAL:
                keep = keep & (rows >= key)
            s += ct.where(keep, 0.0, -np.inf)
        new_max = max(row_max, ct.max(s, axis=-1, keepdims=True) * scale2)
        s = s * scale2 - new_max
        p = ct.exp2(s, flush_to_zero=True)
        correction = ct.exp2(row_max - new_max, flush_to_zero=True)
        row_sum = row_sum * correction + ct.sum(p, axis=-1, keepdims=True)
        acc = acc * correction
        v = ct.load(V, index=(b, kv_h, j, 0), shape=(1, 1, TILE_N, Dv), latency=4).reshape((TILE_N, Dv))
        acc = ct.mma(p.astype(Q.dtype), v, acc)
        row_max = new_max

    acc = ct.truediv(acc, row_sum, flush_to_zero=True, rounding_mode=RMd.APPROX)
    out = acc.reshape((1, 1, TILE_M, Dv)).astype(Out.dtype)
    ct.store(Out, index=(b, h, m_block, 0), tile=out)


# The other forms of what the sample brought in: 2-D `order=` on a load ("F") and on a
# store ((1, 0)), ct.truediv with the RZ and FULL rounding modes, a `float` scalar in a
# fully annotated kernel (float32). out[u, w] = x[u, w] / y[w, u] + x[u, w] / s.
@ct.kernel
def order_div(x: "float32[:, ::1]", y: "float32[:, ::1]", out: "float32[:, ::1]", s: float,
              T: ConstInt = 16):
    i = ct.bid(0)
    j = ct.bid(1)
    a = ct.load(x, index=(i, j), shape=(T, T), order="F")
    b = ct.load(y, index=(i, j), shape=(T, T))
    q = ct.truediv(a, b, rounding_mode=RMd.RZ) + ct.truediv(a, s, rounding_mode=ct.RoundingMode.FULL)
    ct.store(out, index=(i, j), tile=q, order=(1, 0))
