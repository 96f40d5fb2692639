# ARGS: --arch sm_80,sm_90 --const tm=128 --const tn=128 --const tk=32
# The same product on sm_80 and sm_90 (no wgmma without sm_90a): mma.sync m16n8k16 fed
# by ldmatrix (ldmatrix.trans for B) from swizzled shared memory, 2 CTAs per SM asked of
# ptxas (.minnctapersm), stages of 16 KiB as many as two CTAs' shared memory allows (5 on
# sm_80's 164 KiB, 6, the most, on sm_90's 228 KiB): dynamic shared memory.
# PTX: mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32
# PTX: ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16
# PTX: ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16
# PTX: \.minnctapersm 2
# PTX-NOT: wgmma
# MANIFEST: m["kernels"][0]["resources"]["sm_90"]["dynamic_shared_bytes"] == 6 * 16384 + 1024
# MANIFEST: m["kernels"][0]["resources"]["sm_80"]["dynamic_shared_bytes"] == 5 * 16384 + 1024
# MANIFEST: "shared_bytes" not in m["kernels"][0]["tile"]
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def matmul(A: "bfloat16[:, ::1]", B: "bfloat16[:, ::1]", C: "float32[:, ::1]",
           tm: ConstInt, tn: ConstInt, tk: ConstInt):
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=acc)
