# ARGS: --arch sm_100a,sm_120 --const tm=128 --const tn=128 --const tk=32
# Blackwell (docs/TILE.md): the product takes the portable mma.sync path fed by ldmatrix
# (never wgmma, sm_90a's alone, even on sm_100a), in sm_90 PTX that nvJitLink links for
# the real arch. The shared-memory budget is the arch's own: on sm_120 (99 KiB per block,
# 100 KiB per SM for the two CTAs asked of it) fewer 16 KiB stages fit than on sm_100a.
# PTX: \.target sm_90\n
# PTX: mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32
# PTX: ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16
# PTX-NOT: wgmma
# PTX-NOT: sm_90a
# MANIFEST: [t.get("ptx_target") for t in m["targets"]] == ["sm_90", "sm_90"]
# MANIFEST: m["kernels"][0]["resources"]["sm_100a"]["dynamic_shared_bytes"] == 6 * 16384 + 1024
# MANIFEST: 0 < m["kernels"][0]["resources"]["sm_120"]["static_shared_bytes"] + m["kernels"][0]["resources"]["sm_120"].get("dynamic_shared_bytes", 0) < 6 * 16384 + 1024
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
