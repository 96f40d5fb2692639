# ARGS: --diag-kinds inspect %s --emit resources --arch sm_90a --const tm=128 --const tn=128 --const tk=64
"""`--emit resources` of a tile kernel: the block pykc chose, the dynamic shared memory
every launch passes (past 48 KiB: the pipelined operand stages), and occupancy at that
block counting it."""
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
# CHECK:STDOUT: matmul void(bfloat16[:, ::1], bfloat16[:, ::1], float32[:, ::1], tm=128, tn=128, tk=64) on sm_90a
# CHECK:STDOUT:   symbol              matmul__bf16a2C_bf16a2C_f32a2C__Ktm_128__Ktn_128__Ktk_64
# CHECK:STDOUT:   registers           128 per thread
# CHECK:STDOUT:   spills              0 bytes stored, 0 bytes loaded
# CHECK:STDOUT:   stack frame         0 bytes per thread
# CHECK:STDOUT:   static shared       0 bytes per block
# CHECK:STDOUT:   constant memory     648 bytes (bank 0: launch area and parameters)
# CHECK:STDOUT:   parameters          120 bytes
# CHECK:STDOUT:   max threads/block   256
# CHECK:STDOUT:   tile block          256 threads (pykc's choice: every launch uses it)
# CHECK:STDOUT:   dynamic shared      99328 bytes per block (passed at launch)
# CHECK:STDOUT:   occupancy           block  256:  25% (16 of 64 warps/SM, 2 blocks/SM; limited by registers)
