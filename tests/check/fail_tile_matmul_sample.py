# ARGS: --diag-kinds compile %s --phase=check --sig matmul_kernel(float32[:,::1],float32[:,::1],float32[:,::1]) --const tm=128 --const tn=128 --const tk=32
# cuTile's MatMul sample (cutile-python samples/MatMul.py), verbatim: everything but
# `ct.mma` type-checks (the helper, its tuple, min, ByTarget, the padding mode and the
# dtype chosen at compile time). Rename to tile_matmul_sample.py once `ct.mma` lands.
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
        # CHECK:STDERR: fail_tile_matmul_sample.py:[[@LINE+4]]:23: error: `ct.mma` is not supported in tile kernels yet [tile-unsupported]
        # CHECK:STDERR:         accumulator = ct.mma(a, b, accumulator)
        # CHECK:STDERR:                       ^~~~~~~~~~~~~~~~~~~~~~~~~
        # CHECK:STDERR:
        accumulator = ct.mma(a, b, accumulator)
    accumulator = ct.astype(accumulator, C.dtype)
    ct.store(C, index=(bidx, bidy), tile=accumulator)
