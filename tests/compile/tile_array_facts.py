# ARGS: --arch sm_90 --const tm=128 --const tn=128 --const tk=32
# Array facts (`.assume(...)`, what pykc.tile's ct.launch knows of its arguments, as
# cuTile's specialisation bits): a 16-byte aligned base, strides divisible by 16 bytes and
# 16-divisible extents decide the vector test at compile time, so loads and stores keep
# only the vector path (no element-wise copy of the tile for misaligned arrays, no version
# for a ragged last chunk), and the matrix product keeps only its cp.async main loop.
# With 16-divisible extents each chunk lies wholly inside or outside the array, so one
# version tests each chunk (one compare) instead of a second copy of the whole tile for
# tiles wholly inside: half the PTX, and ptxas's time with it.
# LL: chunk\.whole
# LL-NOT: tile\.whole
# LL-NOT: tile\.edge
# LL-NOT: tile\.whole\.chunks
# LL-NOT: pipe\.slow
# LL: pipe\.fast
# PTX: cp\.async
# MANIFEST: m["kernels"][0]["params"][0]["alignment"] == 16
# MANIFEST: m["kernels"][0]["params"][0]["shape_divisible_by"] == [16]
# MANIFEST: m["kernels"][1]["params"][0]["stride_divisible_by"] == [8, 1]
# MANIFEST: "q16" in m["kernels"][0]["symbol"]
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vadd(a: "float32[::1].assume(alignment=16, shape_divisible_by=16)",
         b: "float32[::1].assume(alignment=16, shape_divisible_by=16)",
         c: "float32[::1].assume(alignment=16, shape_divisible_by=16)", TILE: ConstInt = 1024):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=x + y)


@ct.kernel
def matmul(A: "bfloat16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 1))",
           B: "bfloat16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 1))",
           C: "float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=16)",
           tm: ConstInt, tn: ConstInt, tk: ConstInt):
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=acc)
