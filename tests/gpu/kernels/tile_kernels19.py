"""Tile kernels, nineteenth file: cuTile's block-scaled products (ct.mma_scaled) and its
4-bit float float4_e2m1fn (packed two per byte by ct.pack_to_bytes, unpacked by
ct.unpack_from_bytes): float8_e4m3fn and float8_e5m2 operands with float8_e8m0fnu scales
(blocks of 32 along K), float4_e2m1fn operands with float8_e4m3fn (blocks of 16) and
float8_e8m0fnu (blocks of 32) scales, a batched product (2-D x, 3-D y), and float32 to
float4 and back. sm_90 has no block-scaled MMA: pykc scales the decoded operands in
float32 and sums on CUDA cores. Checked on the CPU by tests/tile_sim
(mma_scaled_cases.py, NumPy references) and on the GPU by tests/gpu/cases/tile_cases19.py.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scaled_e4m3(a: "float8_e4m3fn[:, ::1]", sa: "float8_e8m0fnu[:, ::1]", b: "float8_e4m3fn[:, ::1]",
                sb: "float8_e8m0fnu[:, ::1]", c: "float32[:, ::1]",
                TM: ConstInt = 32, TN: ConstInt = 32, TK: ConstInt = 64):
    # c[pid] += (a * sa) @ (b * sb), over K in steps of TK (TK // 32 scales a step).
    pid = ct.bid(0)
    acc = ct.load(c, index=(pid, 0), shape=(TM, TN))
    for k in range(ct.cdiv(a.shape[1], TK)):
        ta = ct.load(a, index=(pid, k), shape=(TM, TK))
        tsa = ct.load(sa, index=(pid, k), shape=(TM, TK // 32))
        tb = ct.load(b, index=(k, 0), shape=(TK, TN))
        tsb = ct.load(sb, index=(k, 0), shape=(TK // 32, TN))
        acc = ct.mma_scaled(ta, tsa, tb, tsb, acc)
    ct.store(c, index=(pid, 0), tile=acc)


@ct.kernel
def scaled_e5m2_batched(a: "float8_e5m2[:, ::1]", sa: "float8_e8m0fnu[:, ::1]", b: "float8_e5m2[:, :, ::1]",
                        sb: "float8_e8m0fnu[:, :, ::1]", c: "float32[:, :, ::1]",
                        TB: ConstInt = 2, TM: ConstInt = 16, TN: ConstInt = 16, TK: ConstInt = 128):
    # One x for every batch of y: c[i] = (a * sa) @ (b[i] * sb[i]).
    ta = ct.load(a, index=(0, 0), shape=(TM, TK))
    tsa = ct.load(sa, index=(0, 0), shape=(TM, TK // 32))
    tb = ct.load(b, index=(0, 0, 0), shape=(TB, TK, TN))
    tsb = ct.load(sb, index=(0, 0, 0), shape=(TB, TK // 32, TN))
    acc = ct.zeros((TB, TM, TN), dtype=ct.float32)
    ct.store(c, index=(0, 0, 0), tile=ct.mma_scaled(ta, tsa, tb, tsb, acc=acc))


@ct.kernel
def scaled_f4_e4m3(a: "uint8[:, ::1]", sa: "float8_e4m3fn[:, ::1]", b: "uint8[:, ::1]",
                   sb: "float8_e4m3fn[:, ::1]", c: "float32[:, ::1]",
                   TM: ConstInt = 64, TN: ConstInt = 64, TK: ConstInt = 64):
    # float4 operands packed two per byte along their rows; E4M3 scales, blocks of 16
    # (64x64: tensor cores; scaled_f4_e8m0's 16x32 takes CUDA cores).
    pid = ct.bid(0)
    pa = ct.load(a, index=(pid, 0), shape=(TM, TK // 2))
    ta = ct.unpack_from_bytes(pa.reshape((-1,)), ct.float4_e2m1fn).reshape((TM, TK))
    pb = ct.load(b, index=(0, 0), shape=(TK, TN // 2))
    tb = ct.unpack_from_bytes(pb.reshape((-1,)), ct.float4_e2m1fn).reshape((TK, TN))
    tsa = ct.load(sa, index=(pid, 0), shape=(TM, TK // 16))
    tsb = ct.load(sb, index=(0, 0), shape=(TK // 16, TN))
    acc = ct.mma_scaled(ta, tsa, tb, tsb, ct.zeros((TM, TN), dtype=ct.float32))
    ct.store(c, index=(pid, 0), tile=acc)


@ct.kernel
def scaled_f4_e8m0(a: "uint8[:, ::1]", sa: "float8_e8m0fnu[:, ::1]", b: "uint8[:, ::1]",
                   sb: "float8_e8m0fnu[:, ::1]", c: "float32[:, ::1]",
                   TM: ConstInt = 16, TN: ConstInt = 32, TK: ConstInt = 64):
    # The same with E8M0 scales in blocks of 32, accumulating onto c.
    pid = ct.bid(0)
    pa = ct.load(a, index=(pid, 0), shape=(TM, TK // 2))
    ta = ct.unpack_from_bytes(pa.reshape((-1,)), ct.float4_e2m1fn).reshape((TM, TK))
    pb = ct.load(b, index=(0, 0), shape=(TK, TN // 2))
    tb = ct.unpack_from_bytes(pb.reshape((-1,)), ct.float4_e2m1fn).reshape((TK, TN))
    tsa = ct.load(sa, index=(pid, 0), shape=(TM, TK // 32))
    tsb = ct.load(sb, index=(0, 0), shape=(TK // 32, TN))
    acc = ct.load(c, index=(pid, 0), shape=(TM, TN))
    ct.store(c, index=(pid, 0), tile=ct.mma_scaled(ta, tsa, tb, tsb, acc))


@ct.kernel
def f4_codec(x: "float32[::1]", packed: "uint8[::1]", back: "float32[::1]", k: "float32[::1]",
             TILE: ConstInt = 128):
    # float32 -> float4_e2m1fn (nearest even, saturating at 6), packed two per byte (the
    # first of each pair in the low nibble), and decoded again; and float4 constants.
    pid = ct.bid(0)
    five = ct.full((2,), 5.0, dtype=ct.float4_e2m1fn)  # a tie: 4
    ct.store(k, index=(pid,), tile=ct.cat((five, ct.full((2,), -2.6, dtype=ct.float4_e2m1fn)), 0).astype(ct.float32))
    q = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float4_e2m1fn)
    p = ct.pack_to_bytes(q)
    ct.store(packed, index=(pid,), tile=p)
    ct.store(back, index=(pid,), tile=ct.unpack_from_bytes(p, ct.float4_e2m1fn).astype(ct.float32))


def unswizzle_32_4_4(t):
    # (m0, k0, 32, 16) scales in tcgen05's 32x4x4 order -> the logical (m0 * 128, k0 * 4).
    m0, k0, _, _ = t.shape
    return t.reshape((m0, k0, 32, 4, 4)).permute((0, 3, 2, 1, 4)).reshape((m0 * 128, k0 * 4))


@ct.kernel
def scaled_swizzled(a: "float8_e4m3fn[:, ::1]", sa: "float8_e8m0fnu[:, :, :, ::1]", b: "float8_e4m3fn[:, ::1]",
                    sb: "float8_e8m0fnu[:, :, :, ::1]", c: "float32[:, ::1]",
                    TM: ConstInt = 128, TN: ConstInt = 128, TK: ConstInt = 128):
    # cuTile's block_scaled_matmul_kernel at its sizes: 128x128x128 tiles, scales stored
    # swizzled (B's N-major), unswizzled in the kernel.
    bx = ct.bid(0)
    by = ct.bid(1)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bx, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tsa = unswizzle_32_4_4(ct.load(sa, index=(bx, k, 0, 0), shape=(1, TK // 128, 32, 16)))
        tb = ct.load(b, index=(k, by), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        tsb = unswizzle_32_4_4(ct.load(sb, index=(by, k, 0, 0), shape=(1, TK // 128, 32, 16))).permute((1, 0))
        acc = ct.mma_scaled(ta, tsa, tb, tsb, acc)
    ct.store(c, index=(bx, by), tile=acc)
