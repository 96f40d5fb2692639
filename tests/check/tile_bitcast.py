# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""`ct.bitcast(x, dtype)`: a tile's (or a run-time scalar's) bits as another dtype of the
same width (cuTile's test_cast); bools and widths that differ are errors
(tests/check/fail_tile_bitcast.py)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bits(x: "float32[::1]", y: "int32[::1]", h: "float16[::1]", u: "uint16[::1]", TILE: ConstInt = 64):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=ct.bitcast(tx, y.dtype))
    th = ct.load(h, index=(bid,), shape=(TILE,))
    ct.store(u, index=(bid,), tile=ct.bitcast(th, ct.uint16) & 0x7FFF)
# CHECK:STDOUT: kernel bits bits__f32a1C_i32a1C_f16a1C_u16a1C__KTILE_64 void(float32[::1], int32[::1], float16[::1], uint16[::1], TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   h: array(float16, 1d, C)
# CHECK:STDOUT:   th: tile(float16, (64,))
# CHECK:STDOUT:   tx: tile(float32, (64,))
# CHECK:STDOUT:   u: array(uint16, 1d, C)
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(int32, 1d, C)
