# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig matmul_kernel(float32[:,::1],float32[:,::1],float32[:,::1]) --const tm=128 --const tn=128 --const tk=32
# cuTile's MatMul sample (cutile-python samples/MatMul.py), verbatim, type-checks:
# the helper, its tuple, min, ByTarget, the padding mode, the dtype chosen at compile
# time (tfloat32 for float32 arrays) and `ct.mma`.
import cuda.tile as ct

ConstInt = ct.Constant[int]


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
def matmul_kernel(A, B, C, tm: ConstInt, tn: ConstInt, tk: ConstInt):
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
        accumulator = ct.mma(a, b, accumulator)
    accumulator = ct.astype(accumulator, C.dtype)
    ct.store(C, index=(bidx, bidy), tile=accumulator)
# CHECK:STDOUT: kernel matmul_kernel matmul_kernel__f32a2C_f32a2C_f32a2C__Ktm_128__Ktn_128__Ktk_32 void(float32[:, ::1], float32[:, ::1], float32[:, ::1], tm=128, tn=128, tk=32)
# CHECK:STDOUT:   A: array(float32, 2d, C)
# CHECK:STDOUT:   B: array(float32, 2d, C)
# CHECK:STDOUT:   C: array(float32, 2d, C)
# CHECK:STDOUT:   GROUP_SIZE_M: int64
# CHECK:STDOUT:   M: int32
# CHECK:STDOUT:   N: int32
# CHECK:STDOUT:   a: tile(tfloat32, (128, 32))
# CHECK:STDOUT:   accumulator: tile(float32, (128, 128))
# CHECK:STDOUT:   b: tile(tfloat32, (32, 128))
# CHECK:STDOUT:   bidx: int32
# CHECK:STDOUT:   bidy: int32
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   num_tiles_k: int32
# CHECK:STDOUT:   tk: int64
# CHECK:STDOUT:   tm: int64
# CHECK:STDOUT:   tn: int64
# CHECK:STDOUT: device swizzle_2d swizzle_2d__i32__i32__K128__K128__K8 UniTuple(int32 x 2)(int32, int32, tm=128, tn=128, GROUP_SIZE_M=8)
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
