# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(float32[:,::1],int32,float32)
"""`ct.astile(value, dtype=None)` (cuTile's test_astile): a tile shaped by the nesting of
constants, run-time numbers and tuples held in names; a number alone gives a 0-d tile (a
scalar); without `dtype`, the leaves' promoted dtype. A constant tuple in a name indexes; an
element of a tuple value that is no name (`x.strides[1]`) is read."""
import cuda.tile as ct

GRID = ((1, 2), (3, 4))


@ct.kernel
def k(x, a, c):
    consts = ct.astile(GRID, dtype=ct.float16)
    mixed = ct.astile(((1, a), (c, True)), dtype=ct.float32)
    row = (a, a + 1)
    held = ct.astile((row, (5, 6)), dtype=ct.int32)
    inferred = ct.astile((a, 2))
    one = ct.astile(5, dtype=ct.int8)
    stride = x.strides[1] + (a, c)[0]
    idx = ct.static_eval((0,) * 2)
    ct.store(x, idx, mixed + consts.astype(ct.float32) + held + inferred.reshape((1, 2)) + one + stride)
# CHECK:STDOUT: kernel k k__f32a2C_i32_f32 void(float32[:, ::1], int32, float32)
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   c: float32
# CHECK:STDOUT:   consts: tile(float16, (2, 2))
# CHECK:STDOUT:   held: tile(int32, (2, 2))
# CHECK:STDOUT:   idx: UniTuple(int64 x 2)
# CHECK:STDOUT:   inferred: tile(int32, (2,))
# CHECK:STDOUT:   mixed: tile(float32, (2, 2))
# CHECK:STDOUT:   one: int8
# CHECK:STDOUT:   row: UniTuple(int32 x 2)
# CHECK:STDOUT:   stride: int32
# CHECK:STDOUT:   x: array(float32, 2d, C)
