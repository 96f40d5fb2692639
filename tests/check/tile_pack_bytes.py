# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""`ct.pack_to_bytes(x)`: x's bytes, row-major, as a 1-D uint8 tile (a run-time scalar
gives its own bytes); `ct.unpack_from_bytes(b, dtype)`: a 1-D uint8 tile's bytes as a
1-D tile of dtype (cuTile's test_pack_unpack). Errors: tests/check/fail_tile_pack_bytes.py."""
import cuda.tile as ct


@ct.kernel
def k(x: "float32[::1]", m: "float16[:, ::1]", y: "int64[::1]", TILE: ct.Constant[int] = 128):
    tx = ct.load(x, index=(0,), shape=(TILE,))
    packed = ct.pack_to_bytes(tx)
    wide = ct.unpack_from_bytes(packed, y.dtype)
    tm = ct.load(m, index=(0, 0), shape=(16, 32))
    back = ct.unpack_from_bytes(ct.pack_to_bytes(tm), ct.float16).reshape((16, 32))
    one = ct.pack_to_bytes(ct.bid(0))
    ct.store(y, index=(0,), tile=wide)
    ct.store(m, index=(0, 0), tile=back)
# CHECK:STDOUT: kernel k k__f32a1C_f16a2C_i64a1C__KTILE_128 void(float32[::1], float16[:, ::1], int64[::1], TILE=128)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   back: tile(float16, (16, 32))
# CHECK:STDOUT:   m: array(float16, 2d, C)
# CHECK:STDOUT:   one: tile(uint8, (4,))
# CHECK:STDOUT:   packed: tile(uint8, (512,))
# CHECK:STDOUT:   tm: tile(float16, (16, 32))
# CHECK:STDOUT:   tx: tile(float32, (128,))
# CHECK:STDOUT:   wide: tile(int64, (64,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(int64, 1d, C)
