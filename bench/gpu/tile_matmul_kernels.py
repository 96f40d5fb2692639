"""The bf16 matmul of bench/gpu/tile_matmul.py: cuTile's MatMul sample (as in
tests/gpu/kernels/tile_mma_kernels.py), compiled once per tile shape with --const."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


# cuTile's MatMul sample (samples/MatMul.py), verbatim but for the annotations: a helper
# swizzles the 1-D grid into groups of GROUP_SIZE_M block rows, K tiles are loaded with
# zero padding, tfloat32 is chosen at compile time for float32 arrays, fp32 accumulation.
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
def matmul_sample(A: "bfloat16[:, ::1]", B: "bfloat16[:, ::1]", C: "bfloat16[:, ::1]",
                  tm: ConstInt = 128, tn: ConstInt = 128, tk: ConstInt = 32):
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
