"""Matrix products in cuTile Python's dialect (`ct.mma`, `ct.matmul`, `@`; docs/TILE.md,
"Matrix products"), written as cuTile's samples write them. Checked against NumPy by
tests/gpu/cases/tile_mma_cases.py. Tensor cores: bfloat16/float16/tfloat32 in, float32
(or float16) accumulation; CUDA cores: float32, float64, int8.
"""

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


# A 2-D grid, float32 output.
@ct.kernel
def matmul_bf16_f32(A: "bfloat16[:, ::1]", B: "bfloat16[:, ::1]", C: "float32[:, ::1]",
                    tm: ConstInt = 128, tn: ConstInt = 128, tk: ConstInt = 32):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    accumulator = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        accumulator = ct.mma(a, b, accumulator)
    ct.store(C, index=(bidx, bidy), tile=accumulator)


# Strided (non-contiguous) operands: copied element by element into shared memory.
@ct.kernel
def matmul_f16_strided(A: "float16[:, :]", B: "float16[:, :]", C: "float32[:, :]",
                       tm: ConstInt = 64, tn: ConstInt = 64, tk: ConstInt = 32):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    accumulator = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        accumulator = ct.mma(a, b, accumulator)
    ct.store(C, index=(bidx, bidy), tile=accumulator)


# float16 accumulation (cuTile allows f16 or f32 for f16 inputs).
@ct.kernel
def matmul_f16_acc16(A: "float16[:, ::1]", B: "float16[:, ::1]", C: "float16[:, ::1]",
                     tm: ConstInt = 64, tn: ConstInt = 64, tk: ConstInt = 32):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    accumulator = ct.full((tm, tn), 0, dtype=ct.float16)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        accumulator = ct.mma(a, b, accumulator)
    ct.store(C, index=(bidx, bidy), tile=accumulator)


# tfloat32: float32 arrays, operands rounded to tf32 (the sample's `dtype` choice).
@ct.kernel
def matmul_tf32(A: "float32[:, ::1]", B: "float32[:, ::1]", C: "float32[:, ::1]",
                tm: ConstInt = 64, tn: ConstInt = 64, tk: ConstInt = 16):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    accumulator = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO).astype(ct.tfloat32)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO).astype(ct.tfloat32)
        accumulator = ct.mma(a, b, accumulator)
    ct.store(C, index=(bidx, bidy), tile=accumulator)


# `@`: one K tile, result in the operands' dtype (float16).
@ct.kernel
def matmul_at(A: "float16[:, ::1]", B: "float16[:, ::1]", C: "float16[:, ::1]",
              tm: ConstInt = 64, tn: ConstInt = 64, tk: ConstInt = 64):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    a = ct.load(A, index=(bidx, 0), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(B, index=(0, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
    ct.store(C, index=(bidx, bidy), tile=a @ b)


# Operands computed in registers (not plain loads): staged into shared memory per product;
# an epilogue with a broadcast bias, ReLU and a row reduction of the accumulator.
@ct.kernel
def matmul_epilogue(A: "bfloat16[:, ::1]", B: "bfloat16[:, ::1]", bias: "float32[:, ::1]",
                    C: "bfloat16[:, ::1]", rowsum: "float32[:, ::1]",
                    tm: ConstInt = 64, tn: ConstInt = 64, tk: ConstInt = 32):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk))
        b = ct.load(B, index=(k, bidy), shape=(tk, tn))
        a2 = (a * 2).astype(ct.bfloat16)
        acc = ct.mma(a2, b, acc)
    t = ct.load(bias, index=(0, bidy), shape=(1, tn))
    acc = ct.maximum(acc + t, 0)
    ct.store(C, index=(bidx, bidy), tile=acc.astype(C.dtype))
    ct.store(rowsum, index=(bidx, bidy), tile=ct.sum(acc, axis=1, keepdims=True))


# CUDA cores: exact float32, float64, int8 -> int32.
@ct.kernel
def matmul_f32(A: "float32[:, ::1]", B: "float32[:, ::1]", C: "float32[:, ::1]",
               tm: ConstInt = 32, tn: ConstInt = 32, tk: ConstInt = 16):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk))
        b = ct.load(B, index=(k, bidy), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bidx, bidy), tile=acc)


@ct.kernel
def matmul_f64(A: "float64[:, ::1]", B: "float64[:, ::1]", C: "float64[:, ::1]",
               tm: ConstInt = 16, tn: ConstInt = 16, tk: ConstInt = 8):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float64)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk))
        b = ct.load(B, index=(k, bidy), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bidx, bidy), tile=acc)


@ct.kernel
def matmul_i8(A: "int8[:, ::1]", B: "int8[:, ::1]", C: "int32[:, ::1]",
              tm: ConstInt = 32, tn: ConstInt = 32, tk: ConstInt = 32):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.int32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk))
        b = ct.load(B, index=(k, bidy), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bidx, bidy), tile=acc)
