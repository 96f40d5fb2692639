# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Arrays held in variables and Array.slice views (docs/TILE.md "Array views"): a view keeps
# the element type, rank, layout and stride facts; it loses the base's alignment and the
# sliced axis' extent divisor. Negative axes count from the last.
import cuda.tile as ct


@ct.kernel
def views(x: "float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(16, 16))",
          y: "float32[:, ::1]", lo: "int32", hi: "int32"):
    rows = x.slice(axis=0, start=lo, stop=hi)
    cols = x.slice(-1, lo, hi)
    same = y
    t = ct.load(rows, index=(0, 0), shape=(4, 4)) + ct.load(cols, index=(0, 0), shape=(4, 4))
    ct.store(same, index=(0, 0), tile=t)
# CHECK:STDOUT: kernel views views__f32a2Cq16s4x1h16x16_f32a2C_i32_i32 void(float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(16, 16)), float32[:, ::1], int32, int32)
# CHECK:STDOUT:   cols: array(float32, 2d, C).assume(stride_divisible_by=(4, 1), shape_divisible_by=(16, 1))
# CHECK:STDOUT:   hi: int32
# CHECK:STDOUT:   lo: int32
# CHECK:STDOUT:   rows: array(float32, 2d, C).assume(stride_divisible_by=(4, 1), shape_divisible_by=(1, 16))
# CHECK:STDOUT:   same: array(float32, 2d, C)
# CHECK:STDOUT:   t: tile(float32, (4, 4))
# CHECK:STDOUT:   x: array(float32, 2d, C).assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(16, 16))
# CHECK:STDOUT:   y: array(float32, 2d, C)
