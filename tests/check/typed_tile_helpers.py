# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig matmul_like(float32[:,::1],float32[:,::1],float32[:,::1]) --sig matmul_like(float16[:,::1],float16[:,::1],float32[:,::1])
# The language of cuTile's samples (docs/TILE.md): plain helper functions typed per call
# site (one instance per argument types and constants, shown as `device`), tuples they
# return unpacked, dtypes and padding modes held in names, `x if c else y` and `if` decided
# at compile time, the builtins min/max/abs/int/float, tfloat32, argmax/argmin and the
# shape operations. `matmul_like` is cuTile's MatMul sample with `ct.mma` replaced.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


def swizzle_2d(M, N, tm, tn, GROUP_SIZE_M):
    bid = ct.bid(0)
    num_bid_m = ct.cdiv(M, tm)
    num_bid_n = ct.cdiv(N, tn)
    num_bid_in_group = GROUP_SIZE_M * num_bid_n
    group_id = bid // num_bid_in_group
    first_bid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_bid_m - first_bid_m, GROUP_SIZE_M)
    bid_m = first_bid_m + (bid % group_size_m)
    bid_n = (bid % num_bid_in_group) // group_size_m
    return bid_m, bid_n


@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def matmul_like(A, B, C, tm: ConstInt = 64, tn: ConstInt = 64, tk: ConstInt = 32):
    GROUP_SIZE_M = 8
    M = A.shape[0]
    N = B.shape[1]
    bidx, bidy = swizzle_2d(M, N, tm, tn, GROUP_SIZE_M)
    num_tiles_k = ct.num_tiles(A, axis=1, shape=(tm, tk))
    accumulator = ct.full((tm, tn), 0, dtype=ct.float32)
    zero_pad = ct.PaddingMode.ZERO
    dtype = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    for k in range(num_tiles_k):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=zero_pad).astype(dtype)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=zero_pad).astype(dtype)
        rows = ct.sum(a.astype(ct.float32), axis=1, keepdims=True)
        accumulator = accumulator + rows * ct.sum(b.astype(ct.float32), axis=0, keepdims=True)
    accumulator = ct.astype(accumulator, C.dtype)
    ct.store(C, index=(bidx, bidy), tile=accumulator)


def row_stats(t, axis, relative=False):
    mean = ct.sum(t, axis=axis, keepdims=True) / t.shape[axis]
    if relative:
        return t / mean, ct.argmax(t, axis=axis)
    return t - mean, ct.argmax(t, axis=axis)


def pick(i, n):
    if i >= n:
        return n - 1
    return i


def tile_size(dtype):
    return 128 if dtype == ct.float16 else 64


@ct.kernel
def language(x: "float16[:, ::1]", y: "float32[:, ::1]", idx: "int32[::1]", s: "float32",
             FLAG: ConstBool = False):
    pid = ct.bid(0)
    T = tile_size(x.dtype)
    t = ct.load(x, index=(pid, 0), shape=(2, T)).astype(ct.float32)
    d, where = row_stats(t, 1)
    r, _ = row_stats(t, axis=1, relative=True)
    other, _ = row_stats(t.astype(ct.float64), 0)
    j = pick(pid, 10)
    k = pick(pid, ct.num_blocks(0))
    lo = min(j, k, 3)
    hi = max(s, 1.5)
    mag = abs(-4) + abs(s) + int(s) + float(j)
    w = 2.0 if pid % 2 == 0 else s
    if not FLAG:
        u = d
    else:
        u = r.astype(ct.int32)
    v = ct.transpose(u).reshape((T, 1, 2))
    p = ct.permute(v, (2, 0, 1))
    q = u[:, None, :] + ct.expand_dims(ct.argmin(u, axis=0), 0)[None, ...]
    e = ct.broadcast_to(ct.sum(u, axis=1)[:, None], (2, T))
    ct.store(y, index=(pid, 0), tile=u * w + e + p.reshape((2, T)) + q.reshape((2, T)))
    ct.store(idx, index=(pid,), tile=where + lo + hi.astype(ct.int32) + mag.astype(ct.int32))
# CHECK:STDOUT: kernel matmul_like matmul_like__f32a2C_f32a2C_f32a2C__Ktm_64__Ktn_64__Ktk_32 void(float32[:, ::1], float32[:, ::1], float32[:, ::1], tm=64, tn=64, tk=32)
# CHECK:STDOUT:   A: array(float32, 2d, C)
# CHECK:STDOUT:   B: array(float32, 2d, C)
# CHECK:STDOUT:   C: array(float32, 2d, C)
# CHECK:STDOUT:   GROUP_SIZE_M: int64
# CHECK:STDOUT:   M: int32
# CHECK:STDOUT:   N: int32
# CHECK:STDOUT:   a: tile(tfloat32, (64, 32))
# CHECK:STDOUT:   accumulator: tile(float32, (64, 64))
# CHECK:STDOUT:   b: tile(tfloat32, (32, 64))
# CHECK:STDOUT:   bidx: int32
# CHECK:STDOUT:   bidy: int32
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   num_tiles_k: int32
# CHECK:STDOUT:   rows: tile(float32, (64, 1))
# CHECK:STDOUT:   tk: int64
# CHECK:STDOUT:   tm: int64
# CHECK:STDOUT:   tn: int64
# CHECK:STDOUT: kernel matmul_like matmul_like__f16a2C_f16a2C_f32a2C__Ktm_64__Ktn_64__Ktk_32 void(float16[:, ::1], float16[:, ::1], float32[:, ::1], tm=64, tn=64, tk=32)
# CHECK:STDOUT:   A: array(float16, 2d, C)
# CHECK:STDOUT:   B: array(float16, 2d, C)
# CHECK:STDOUT:   C: array(float32, 2d, C)
# CHECK:STDOUT:   GROUP_SIZE_M: int64
# CHECK:STDOUT:   M: int32
# CHECK:STDOUT:   N: int32
# CHECK:STDOUT:   a: tile(float16, (64, 32))
# CHECK:STDOUT:   accumulator: tile(float32, (64, 64))
# CHECK:STDOUT:   b: tile(float16, (32, 64))
# CHECK:STDOUT:   bidx: int32
# CHECK:STDOUT:   bidy: int32
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   num_tiles_k: int32
# CHECK:STDOUT:   rows: tile(float32, (64, 1))
# CHECK:STDOUT:   tk: int64
# CHECK:STDOUT:   tm: int64
# CHECK:STDOUT:   tn: int64
# CHECK:STDOUT: kernel language language__f16a2C_f32a2C_i32a1C_f32__KFLAG_F void(float16[:, ::1], float32[:, ::1], int32[::1], float32, FLAG=False)
# CHECK:STDOUT:   FLAG: bool
# CHECK:STDOUT:   T: int64
# CHECK:STDOUT:   _: tile(int32, (128,))
# CHECK:STDOUT:   d: tile(float32, (2, 128))
# CHECK:STDOUT:   e: tile(float32, (2, 128))
# CHECK:STDOUT:   hi: float32
# CHECK:STDOUT:   idx: array(int32, 1d, C)
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   lo: int32
# CHECK:STDOUT:   mag: float32
# CHECK:STDOUT:   other: tile(float64, (2, 128))
# CHECK:STDOUT:   p: tile(float32, (2, 128, 1))
# CHECK:STDOUT:   pid: int32
# CHECK:STDOUT:   q: tile(float32, (2, 1, 128))
# CHECK:STDOUT:   r: tile(float32, (2, 128))
# CHECK:STDOUT:   s: float32
# CHECK:STDOUT:   t: tile(float32, (2, 128))
# CHECK:STDOUT:   u: tile(float32, (2, 128))
# CHECK:STDOUT:   v: tile(float32, (128, 1, 2))
# CHECK:STDOUT:   w: float32
# CHECK:STDOUT:   where: tile(int32, (2,))
# CHECK:STDOUT:   x: array(float16, 2d, C)
# CHECK:STDOUT:   y: array(float32, 2d, C)
# CHECK:STDOUT: device swizzle_2d swizzle_2d__i32__i32__K64__K64__K8 UniTuple(int32 x 2)(int32, int32, tm=64, tn=64, GROUP_SIZE_M=8)
# CHECK:STDOUT:   GROUP_SIZE_M: int64
# CHECK:STDOUT:   M: int32
# CHECK:STDOUT:   N: int32
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   bid_m: int32
# CHECK:STDOUT:   bid_n: int32
# CHECK:STDOUT:   first_bid_m: int32
# CHECK:STDOUT:   group_id: int32
# CHECK:STDOUT:   group_size_m: int32
# CHECK:STDOUT:   num_bid_in_group: int32
# CHECK:STDOUT:   num_bid_m: int32
# CHECK:STDOUT:   num_bid_n: int32
# CHECK:STDOUT:   tm: int64
# CHECK:STDOUT:   tn: int64
# CHECK:STDOUT: device swizzle_2d swizzle_2d__i32__i32__K64__K64__K8 UniTuple(int32 x 2)(int32, int32, tm=64, tn=64, GROUP_SIZE_M=8)
# CHECK:STDOUT:   GROUP_SIZE_M: int64
# CHECK:STDOUT:   M: int32
# CHECK:STDOUT:   N: int32
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   bid_m: int32
# CHECK:STDOUT:   bid_n: int32
# CHECK:STDOUT:   first_bid_m: int32
# CHECK:STDOUT:   group_id: int32
# CHECK:STDOUT:   group_size_m: int32
# CHECK:STDOUT:   num_bid_in_group: int32
# CHECK:STDOUT:   num_bid_m: int32
# CHECK:STDOUT:   num_bid_n: int32
# CHECK:STDOUT:   tm: int64
# CHECK:STDOUT:   tn: int64
# CHECK:STDOUT: device tile_size tile_size__Efloat16 128(dtype=float16)
# CHECK:STDOUT: device row_stats row_stats__Tf32x2x128__K1__KFalse Tuple(tile(float32, (2, 128)), tile(int32, (2,)))(tile(float32, (2, 128)), axis=1, relative=False)
# CHECK:STDOUT:   axis: int64
# CHECK:STDOUT:   mean: tile(float32, (2, 1))
# CHECK:STDOUT:   relative: bool
# CHECK:STDOUT:   t: tile(float32, (2, 128))
# CHECK:STDOUT: device row_stats row_stats__Tf32x2x128__K1__KTrue Tuple(tile(float32, (2, 128)), tile(int32, (2,)))(tile(float32, (2, 128)), axis=1, relative=True)
# CHECK:STDOUT:   axis: int64
# CHECK:STDOUT:   mean: tile(float32, (2, 1))
# CHECK:STDOUT:   relative: bool
# CHECK:STDOUT:   t: tile(float32, (2, 128))
# CHECK:STDOUT: device row_stats row_stats__Tf64x2x128__K0__KFalse Tuple(tile(float64, (2, 128)), tile(int32, (128,)))(tile(float64, (2, 128)), axis=0, relative=False)
# CHECK:STDOUT:   axis: int64
# CHECK:STDOUT:   mean: tile(float64, (1, 128))
# CHECK:STDOUT:   relative: bool
# CHECK:STDOUT:   t: tile(float64, (2, 128))
# CHECK:STDOUT: device pick pick__i32__K10 int32(int32, n=10)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT: device pick pick__i32__i32 int32(int32, int32)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   n: int32
