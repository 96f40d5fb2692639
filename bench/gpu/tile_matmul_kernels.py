"""The bf16 matmul of bench/gpu/tile_matmul.py: cuTile's MatMul sample (as in
tests/gpu/kernels/tile_mma_kernels.py), compiled once per tile shape with --const."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


# The shape of cuTile's MatMul sample: a 1-D grid swizzled into groups of GROUP_SIZE_M
# block rows, K tiles loaded with zero padding, fp32 accumulation, cast to C's dtype.
@ct.kernel
def matmul_sample(A: "bfloat16[:, ::1]", B: "bfloat16[:, ::1]", C: "bfloat16[:, ::1]",
                  tm: ConstInt = 128, tn: ConstInt = 128, tk: ConstInt = 32):
    GROUP_SIZE_M = 8
    M = A.shape[0]
    N = B.shape[1]
    bid = ct.bid(0)
    num_bid_m = ct.cdiv(M, tm)
    num_bid_n = ct.cdiv(N, tn)
    num_bid_in_group = GROUP_SIZE_M * num_bid_n
    group_id = bid // num_bid_in_group
    first_bid_m = group_id * GROUP_SIZE_M
    group_size_m = num_bid_m - first_bid_m
    if group_size_m > GROUP_SIZE_M:
        group_size_m = GROUP_SIZE_M
    bidx = first_bid_m + (bid % group_size_m)
    bidy = (bid % num_bid_in_group) // group_size_m
    num_tiles_k = ct.num_tiles(A, axis=1, shape=(tm, tk))
    accumulator = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(num_tiles_k):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        accumulator = ct.mma(a, b, accumulator)
    accumulator = ct.astype(accumulator, C.dtype)
    ct.store(C, index=(bidx, bidy), tile=accumulator)
