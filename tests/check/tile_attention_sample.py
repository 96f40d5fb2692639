# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig attn(float16[:,:,:,::1],float16[:,:,:,::1],float16[:,:,:,::1],float16[:,:,:,::1],float32,int32) --const Dqk=64 --const Dv=64 --const H=8 --const TILE_M=128 --const TILE_N=64 --const GROUP=1 --const CAUSAL=1 --const EVEN_K=0
# What cuTile's AttentionFMHA sample is written with: unannotated arrays beside
# `qk_scale: float` / `input_pos: int` (types from --sig), Constant[bool] given 0/1 on the
# command line (a bool), NumPy dtypes and np.inf, `math.log` of a module constant,
# `from cuda.tile import RoundingMode`, `order=` on a load, exp2 and truediv options,
# bool tiles, builtin `max` on tiles. A second kernel, fully annotated, where `float`,
# `int`, `bool` annotations mean float32, int32 and bool.
import math

import numpy as np

import cuda.tile as ct
from cuda.tile import RoundingMode as RMd

INV_LOG_2 = 1.0 / math.log(2)
HALF_LOG10 = math.log10(100) / 4 + math.log(8, 2) - math.sqrt(9) + math.exp(0) - math.log2(2)
ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel(occupancy=2)
def attn(Q, K, V, Out, qk_scale: float, input_pos: int, Dqk: ConstInt, Dv: ConstInt, H: ConstInt,
         TILE_M: ConstInt, TILE_N: ConstInt, GROUP: ConstInt, CAUSAL: ConstBool, EVEN_K: ConstBool):
    bid_x = ct.bid(0)
    bid_y = ct.bid(1)
    batch = bid_y // H
    head = bid_y % H
    kv_head = head // GROUP
    qk_scale = qk_scale * INV_LOG_2
    offs_m = bid_x * TILE_M + ct.arange(TILE_M, dtype=np.int32)
    offs_m += input_pos
    offs_m = offs_m[:, None]
    offs_n_tile = ct.arange(TILE_N, dtype=np.int32)[None, :]
    m_i = ct.full((TILE_M, 1), -np.inf, dtype=np.float32)
    l_i = ct.full((TILE_M, 1), 0.0, dtype=np.float32)
    acc = ct.full((TILE_M, Dv), 0.0, dtype=np.float32)
    q = ct.load(Q, index=(batch, head, bid_x, 0), shape=(1, 1, TILE_M, Dqk)).reshape((TILE_M, Dqk))
    k_seqlen = K.shape[2]
    if CAUSAL:
        mask_start = min((input_pos + bid_x * TILE_M) // TILE_N, k_seqlen // TILE_N)
        Tc = ct.cdiv(min(input_pos + (bid_x + 1) * TILE_M, k_seqlen), TILE_N)
    else:
        Tc = ct.cdiv(k_seqlen, TILE_N)
        mask_start = k_seqlen // TILE_N
    for j in range(0, Tc):
        k = ct.load(K, index=(batch, kv_head, 0, j), shape=(1, 1, Dqk, TILE_N), order=(0, 1, 3, 2), latency=2)
        k = k.reshape((Dqk, TILE_N))
        qk = ct.full((TILE_M, TILE_N), 0., dtype=np.float32)
        qk = ct.mma(q, k, qk)
        if (CAUSAL or not EVEN_K) and j >= mask_start:
            offs_n = j * TILE_N + offs_n_tile
            mask = ct.full((TILE_M, TILE_N), True, dtype=np.bool_)
            if not EVEN_K:
                mask = mask & (offs_n < k_seqlen)
            if CAUSAL:
                mask = mask & (offs_m >= offs_n)
            mask = ct.where(mask, 0.0, -np.inf)
            qk += mask
        m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True) * qk_scale)
        qk = qk * qk_scale - m_ij
        p = ct.exp2(qk, flush_to_zero=True)
        l_ij = ct.sum(p, axis=-1, keepdims=True)
        alpha = ct.exp2(m_i - m_ij, flush_to_zero=True)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha
        v = ct.load(V, index=(batch, kv_head, j, 0), shape=(1, 1, TILE_N, Dv), latency=4).reshape((TILE_N, Dv))
        p = p.astype(Q.dtype)
        acc = ct.mma(p, v, acc)
        m_i = m_ij
    acc = ct.truediv(acc, l_i, flush_to_zero=True, rounding_mode=RMd.APPROX)
    acc = acc.reshape((1, 1, TILE_M, Dv)).astype(Out.dtype)
    ct.store(Out, index=(batch, head, bid_x, 0), tile=acc)


@ct.kernel
def options(x: "float32[:, ::1]", y: "float64[:, ::1]", s: float, n: int, flag: bool,
            T: ConstInt = 16, F: ConstBool = True):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(T, T), order="F")
    u = ct.load(y, index=(i, 0), shape=(T, T), order="C")
    a = ct.truediv(t, s)
    b = ct.truediv(t, 3.0, rounding_mode=ct.RoundingMode.FULL)
    c = ct.truediv(u, u, rounding_mode=RMd.RZ)
    d = ct.truediv(t, t, rounding_mode=None, flush_to_zero=F)
    e = ct.rsqrt(t, flush_to_zero=True) + ct.exp2(t)
    lo = min(t, a, 0.5)
    hi = max(ct.arange(T, dtype=np.int32)[:, None], n)
    m = hi > 3 if flag else hi < 3
    r = ct.where(m & (t > 0), a + b + d + e + lo, HALF_LOG10)
    ct.store(x, index=(i, 0), tile=r, order=(1, 0))
    ct.store(y, index=(i, 0), tile=c)
# CHECK:STDOUT: kernel attn attn__f16a4C_f16a4C_f16a4C_f16a4C_f32_i32__KDqk_64__KDv_64__KH_8__KTILE_M_128__KTILE_N_64__KGROUP_1__KCAUSAL_T__KEVEN_K_F void(float16[:, :, :, ::1], float16[:, :, :, ::1], float16[:, :, :, ::1], float16[:, :, :, ::1], float32, int32, Dqk=64, Dv=64, H=8, TILE_M=128, TILE_N=64, GROUP=1, CAUSAL=True, EVEN_K=False)
# CHECK:STDOUT:   CAUSAL: bool
# CHECK:STDOUT:   Dqk: int64
# CHECK:STDOUT:   Dv: int64
# CHECK:STDOUT:   EVEN_K: bool
# CHECK:STDOUT:   GROUP: int64
# CHECK:STDOUT:   H: int64
# CHECK:STDOUT:   K: array(float16, 4d, C)
# CHECK:STDOUT:   Out: array(float16, 4d, C)
# CHECK:STDOUT:   Q: array(float16, 4d, C)
# CHECK:STDOUT:   TILE_M: int64
# CHECK:STDOUT:   TILE_N: int64
# CHECK:STDOUT:   Tc: int32
# CHECK:STDOUT:   V: array(float16, 4d, C)
# CHECK:STDOUT:   acc: tile(float16, (1, 1, 128, 64))
# CHECK:STDOUT:   alpha: tile(float32, (128, 1))
# CHECK:STDOUT:   batch: int32
# CHECK:STDOUT:   bid_x: int32
# CHECK:STDOUT:   bid_y: int32
# CHECK:STDOUT:   head: int32
# CHECK:STDOUT:   input_pos: int32
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   k: tile(float16, (64, 64))
# CHECK:STDOUT:   k_seqlen: int32
# CHECK:STDOUT:   kv_head: int32
# CHECK:STDOUT:   l_i: tile(float32, (128, 1))
# CHECK:STDOUT:   l_ij: tile(float32, (128, 1))
# CHECK:STDOUT:   m_i: tile(float32, (128, 1))
# CHECK:STDOUT:   m_ij: tile(float32, (128, 1))
# CHECK:STDOUT:   mask: tile(float32, (128, 64))
# CHECK:STDOUT:   mask_start: int32
# CHECK:STDOUT:   offs_m: tile(int32, (128, 1))
# CHECK:STDOUT:   offs_n: tile(int32, (1, 64))
# CHECK:STDOUT:   offs_n_tile: tile(int32, (1, 64))
# CHECK:STDOUT:   p: tile(float16, (128, 64))
# CHECK:STDOUT:   q: tile(float16, (128, 64))
# CHECK:STDOUT:   qk: tile(float32, (128, 64))
# CHECK:STDOUT:   qk_scale: float32
# CHECK:STDOUT:   v: tile(float16, (64, 64))
# CHECK:STDOUT: kernel options options__f32a2C_f64a2C_f32_i32_b1__KT_16__KF_T void(float32[:, ::1], float64[:, ::1], float32, int32, boolean, T=16, F=True)
# CHECK:STDOUT:   F: bool
# CHECK:STDOUT:   T: int64
# CHECK:STDOUT:   a: tile(float32, (16, 16))
# CHECK:STDOUT:   b: tile(float32, (16, 16))
# CHECK:STDOUT:   c: tile(float64, (16, 16))
# CHECK:STDOUT:   d: tile(float32, (16, 16))
# CHECK:STDOUT:   e: tile(float32, (16, 16))
# CHECK:STDOUT:   flag: bool
# CHECK:STDOUT:   hi: tile(int32, (16, 1))
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   lo: tile(float32, (16, 16))
# CHECK:STDOUT:   m: tile(bool, (16, 1))
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   r: tile(float32, (16, 16))
# CHECK:STDOUT:   s: float32
# CHECK:STDOUT:   t: tile(float32, (16, 16))
# CHECK:STDOUT:   u: tile(float64, (16, 16))
# CHECK:STDOUT:   x: array(float32, 2d, C)
# CHECK:STDOUT:   y: array(float64, 2d, C)
