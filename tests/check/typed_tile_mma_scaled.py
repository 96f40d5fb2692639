# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# ct.mma_scaled (block-scaled products): float8 operands with E8M0 scales, packed float4
# operands (ct.unpack_from_bytes) with E4M3 scales, a batched y, and float4_e2m1fn through
# astype and ct.pack_to_bytes (also by cuTile's private module names), chosen from a tuple
# of dtypes by a constant index.
import cuda.tile as ct
from cuda.tile._datatype import float4_e2m1fn
from cuda.tile._stub import pack_to_bytes


@ct.kernel
def f8(a: "float8_e4m3fn[:, ::1]", s: "float8_e8m0fnu[:, ::1]", c: "float32[:, :, ::1]"):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    xs = ct.load(s, index=(0, 0), shape=(16, 2))
    y = ct.reshape(ct.load(a, index=(0, 0), shape=(128, 16)), (2, 64, 16))
    ys = ct.reshape(ct.load(s, index=(0, 0), shape=(4, 16)), (2, 2, 16))
    ct.store(c, index=(0, 0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc=ct.zeros((2, 16, 16), ct.float32)))


@ct.kernel
def f4(p: "uint8[::1]", s: "float8_e4m3fn[:, ::1]", x: "float32[::1]", c: "float32[:, ::1]",
       D: ct.Constant[int] = 0):
    # A constant index into a tuple of dtypes (cuTile's test_mma_scaled) picks one.
    dtype = (float4_e2m1fn, ct.float8_e4m3fn, ct.float8_e5m2)[D]
    q = ct.unpack_from_bytes(ct.load(p, index=(0,), shape=(512,)), dtype).reshape((16, 64))
    qy = ct.unpack_from_bytes(ct.load(p, index=(0,), shape=(512,)), ct.float4_e2m1fn).reshape((64, 16))
    xs = ct.load(s, index=(0, 0), shape=(16, 4))
    ys = ct.load(s, index=(0, 0), shape=(4, 16))
    ct.store(c, index=(0, 0), tile=ct.mma_scaled(q, xs, qy, ys, ct.zeros((16, 16), ct.float32)))
    packed = pack_to_bytes(ct.load(x, index=(0,), shape=(64,)).astype(float4_e2m1fn))
    ct.store(p, index=(0,), tile=packed)
# CHECK:STDOUT: kernel f8 f8__f8e4m3a2C_f8e8m0a2C_f32a3C void(float8_e4m3fn[:, ::1], float8_e8m0fnu[:, ::1], float32[:, :, ::1])
# CHECK:STDOUT:   a: array(float8_e4m3fn, 2d, C)
# CHECK:STDOUT:   c: array(float32, 3d, C)
# CHECK:STDOUT:   s: array(float8_e8m0fnu, 2d, C)
# CHECK:STDOUT:   x: tile(float8_e4m3fn, (16, 64))
# CHECK:STDOUT:   xs: tile(float8_e8m0fnu, (16, 2))
# CHECK:STDOUT:   y: tile(float8_e4m3fn, (2, 64, 16))
# CHECK:STDOUT:   ys: tile(float8_e8m0fnu, (2, 2, 16))
# CHECK:STDOUT: kernel f4 f4__u8a1C_f8e4m3a2C_f32a1C_f32a2C__KD_0 void(uint8[::1], float8_e4m3fn[:, ::1], float32[::1], float32[:, ::1], D=0)
# CHECK:STDOUT:   D: int64
# CHECK:STDOUT:   c: array(float32, 2d, C)
# CHECK:STDOUT:   p: array(uint8, 1d, C)
# CHECK:STDOUT:   packed: tile(uint8, (32,))
# CHECK:STDOUT:   q: tile(float4_e2m1fn, (16, 64))
# CHECK:STDOUT:   qy: tile(float4_e2m1fn, (64, 16))
# CHECK:STDOUT:   s: array(float8_e4m3fn, 2d, C)
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   xs: tile(float8_e4m3fn, (16, 4))
# CHECK:STDOUT:   ys: tile(float8_e4m3fn, (4, 16))
