# ARGS: --arch sm_90a --const tm=128 --const tn=128 --const tk=64
# Matrix products of tile kernels on sm_90a (docs/TILE.md, "Matrix products"): Hopper's
# wgmma reads A (K-major, 128-byte swizzle) and B (MN-major) from shared memory that
# cp.async fills 2-4 stages ahead; past 48 KiB the shared memory is dynamic and the
# manifest says how much a launch must pass.
# PTX: \.target sm_90a
# PTX: wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.bf16\.bf16
# PTX: wgmma\.commit_group\.sync\.aligned
# PTX: fence\.proxy\.async\.shared::cta
# PTX: cp\.async\.cg\.shared\.global
# Whole tiles copy without a source size (no bounds checks), edge tiles with one:
# PTX: cp\.async\.cg\.shared\.global \[%rd\d+\], \[%rd\d+\], 16;
# PTX: cp\.async\.cg\.shared\.global \[%rd\d+\], \[%rd\d+\], 16, %r\d+;
# The group in flight ends on each loop version's exit, so ptxas does not serialise:
# PTXAS-NOT: C7514
# PTX: \.extern \.shared \.align 16 \.b8 \w+__tile_dynamic\[\]
# PTX-NOT: mma\.sync\.aligned\.m16n8k16
# MANIFEST: m["kernels"][0]["tile"]["block"] == [256, 1, 1]
# MANIFEST: m["kernels"][0]["resources"]["sm_90a"]["dynamic_shared_bytes"] == 3 * 32768 + 1024
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
