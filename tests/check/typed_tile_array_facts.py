# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Array facts (what pykc.tile's ct.launch knows of an argument, as cuTile's
# specialisation bits) are part of the array's type: its name, the instance's symbol
# (q16: alignment, s8x1: stride divisors, h1x16: extent divisors) and signature. Facts
# that say nothing are dropped (alignment within one element, divisors of 1, the unit
# stride's divisor); one number stands for every dimension.
import cuda.tile as ct


@ct.kernel
def rows(x: "float16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 8), shape_divisible_by=(1, 16))",
         y: "float32[::1].assume(alignment=4, shape_divisible_by=1)",
         z: "float32[:, :].assume(stride_divisible_by=4)",
         TILE: ct.Constant[int] = 16):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE))
    ct.store(y, index=(ct.bid(0),), tile=ct.sum(t, axis=1).astype(ct.float32))
# CHECK:STDOUT: kernel rows rows__f16a2Cq16s8x1h1x16_f32a1C_f32a2As4x4__KTILE_16 void(float16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 1), shape_divisible_by=(1, 16)), float32[::1], float32[:, :].assume(stride_divisible_by=(4, 4)), TILE=16)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   t: tile(float16, (1, 16))
# CHECK:STDOUT:   x: array(float16, 2d, C).assume(alignment=16, stride_divisible_by=(8, 1), shape_divisible_by=(1, 16))
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT:   z: array(float32, 2d, A).assume(stride_divisible_by=(4, 4))
