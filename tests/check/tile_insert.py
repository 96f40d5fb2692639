# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""`ct.insert(x, index, y)` and `x.insert(index, y)`: x with the sub-tile at `index` (counted
in sub-tiles of y's shape, as `ct.extract` counts) replaced by y, or one element by a number
(cuTile's test_insert); errors in tests/check/fail_tile_insert.py."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def inserts(x: "float32[::1]", m: "float16[:, ::1]", k: "int32", TILE: ConstInt = 128, SUB: ConstInt = 32):
    tx = ct.load(x, index=(0,), shape=(TILE,))
    sub = ct.extract(tx, index=(k,), shape=(SUB,)) + 5.0
    tx = tx.insert(k, sub)
    tx = ct.insert(tx, (0,), -1.0)
    ct.store(x, index=(0,), tile=tx)
    tm = ct.load(m, index=(0, 0), shape=(32, 32))
    block = ct.extract(tm, index=(1, 2), shape=(16, 8))
    ct.store(m, index=(0, 0), tile=ct.insert(tm, (1, 2), block))
# CHECK:STDOUT: kernel inserts inserts__f32a1C_f16a2C_i32__KTILE_128__KSUB_32 void(float32[::1], float16[:, ::1], int32, TILE=128, SUB=32)
# CHECK:STDOUT:   SUB: int64
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   block: tile(float16, (16, 8))
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   m: array(float16, 2d, C)
# CHECK:STDOUT:   sub: tile(float32, (32,))
# CHECK:STDOUT:   tm: tile(float16, (32, 32))
# CHECK:STDOUT:   tx: tile(float32, (128,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
