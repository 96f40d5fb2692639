# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# ct.mma of an int8 tile by a uint8 tile (either order) into int32 (cuTile's
# test_mma_mixed_int_uint); float16 by bfloat16 stays an error (fail_tile_mma.py).
import cuda.tile as ct


@ct.kernel
def mixed(a: "int8[:, ::1]", b: "uint8[:, ::1]", c: "int32[:, ::1]"):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    acc = ct.mma(x, y, ct.zeros((16, 16), dtype=ct.int32))
    acc = ct.mma(ct.transpose(y), ct.transpose(x), acc)
    ct.store(c, index=(0, 0), tile=acc)
# CHECK:STDOUT: kernel mixed mixed__i8a2C_u8a2C_i32a2C void(int8[:, ::1], uint8[:, ::1], int32[:, ::1])
# CHECK:STDOUT:   a: array(int8, 2d, C)
# CHECK:STDOUT:   acc: tile(int32, (16, 16))
# CHECK:STDOUT:   b: array(uint8, 2d, C)
# CHECK:STDOUT:   c: array(int32, 2d, C)
# CHECK:STDOUT:   x: tile(int8, (16, 32))
# CHECK:STDOUT:   y: tile(uint8, (32, 16))
