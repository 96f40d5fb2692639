# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# cuTile's TiledView: the view's type (its array's, with the tile shape, padding mode and
# traversal steps), its constant attributes, load/store by tile index (a 0-d tile loads a
# scalar), num_tiles; constant extents and strides (`.assume(shape_constant=,
# stride_constant=)`) are compile-time constants, a C array's unit stride too.
import cuda.tile as ct


@ct.kernel
def views(x: "float32[:, ::1].assume(shape_constant=(64, None), stride_constant=(128, None))",
          y: "int32[::1]"):
    tv = x.tiled_view((16, 32), padding_mode=ct.PaddingMode.NAN, traversal_steps=(8, 32))
    dt, shape = tv.dtype, tv.tile_shape
    ct.static_assert(dt == ct.float32 and shape == (16, 32) and tv.traversal_steps == (8, 32))
    ct.static_assert(x.strides[0] == 128 and x.strides[1] == 1 and x.shape[0] == 64)
    ct.static_assert(tv.num_tiles(0) == 8)
    m, n = x.shape
    t = tv.load((ct.bid(0), 0))
    one = y.tiled_view(()).load(3)
    tv.store((0, 1), t + one)
    y.tiled_view(()).store(0, tv.num_tiles(1) + m + n)
# CHECK:STDOUT: kernel views views__f32a2Ck64xut128xu_i32a1C void(float32[:, ::1].assume(shape_constant=(64, None), stride_constant=(128, None)), int32[::1])
# CHECK:STDOUT:   m: int64
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   one: int32
# CHECK:STDOUT:   shape: UniTuple(int64 x 2)
# CHECK:STDOUT:   t: tile(float32, (16, 32))
# CHECK:STDOUT:   tv: TiledView[array(float32, 2d, C).assume(shape_constant=(64, None), stride_constant=(128, None)),tile_shape=(16, 32),padding_mode=NAN,traversal_steps=(8, 32)]
# CHECK:STDOUT:   x: array(float32, 2d, C).assume(shape_constant=(64, None), stride_constant=(128, None))
# CHECK:STDOUT:   y: array(int32, 1d, C)
