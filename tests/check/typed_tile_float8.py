# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# cuTile's 8-bit floats in signatures (annotations and --sig) and kernels: arrays of
# float8_e4m3fn, float8_e5m2 and float8_e8m0fnu loaded and stored, converted with astype
# (also through ct.float8_* and torch.float8_* dtypes), and ct.mma operands.
import cuda.tile as ct
import torch
from cuda.tile._numeric_semantics import RoundingMode as RMd


@ct.kernel
def quantize(x: "bfloat16[:, ::1]", q: "float8_e4m3fn[:, ::1]", scales: "float8_e8m0fnu[::1]",
             TILE: ct.Constant[int] = 128):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(1, TILE)).astype(ct.float32)
    scale = ct.max(ct.abs(t)) / 448.0
    ct.store(q, index=(pid, 0), tile=(t / scale).astype(ct.float8_e4m3fn))
    ct.store(scales, index=(pid,), tile=ct.full((1,), scale, dtype=ct.float32).astype(torch.float8_e8m0fnu))


@ct.kernel
def gemm(a: "float8_e5m2[:, ::1]", b: "float8_e5m2[:, ::1]", c: "float32[:, ::1]",
         TM: ct.Constant[int] = 64, TK: ct.Constant[int] = 32):
    acc = ct.zeros((TM, TM), dtype=ct.float32)
    ta = ct.load(a, index=(ct.bid(0), 0), shape=(TM, TK))
    tb = ct.load(b, index=(0, 0), shape=(TK, TM))
    ct.store(c, index=(ct.bid(0), 0), tile=ct.mma(ta, tb, acc))


@ct.kernel
def dequant(q: "float8_e4m3fn[::1]", ids: "int32[::1]", out: "float32[::1]", TILE: ct.Constant[int] = 64):
    # A dtype called on a number (`ct.float8_e4m3fn(0.0)`, `ct.int16(2)`: that dtype's
    # number) and cuTile's private module names (TileGym's unsloth fp8 kernels).
    i = ct.load(ids, index=(ct.bid(0),), shape=(TILE,))
    t = ct.gather(q, i, padding_value=ct.float8_e4m3fn(0.0)).astype(ct.float32)
    two = ct.int16(2)
    ct.store(out, index=(ct.bid(0),), tile=ct.truediv(t, two, rounding_mode=RMd.FULL))
# CHECK:STDOUT: kernel quantize quantize__bf16a2C_f8e4m3a2C_f8e8m0a1C__KTILE_128 void(bfloat16[:, ::1], float8_e4m3fn[:, ::1], float8_e8m0fnu[::1], TILE=128)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   pid: int32
# CHECK:STDOUT:   q: array(float8_e4m3fn, 2d, C)
# CHECK:STDOUT:   scale: float32
# CHECK:STDOUT:   scales: array(float8_e8m0fnu, 1d, C)
# CHECK:STDOUT:   t: tile(float32, (1, 128))
# CHECK:STDOUT:   x: array(bfloat16, 2d, C)
# CHECK:STDOUT: kernel gemm gemm__f8e5m2a2C_f8e5m2a2C_f32a2C__KTM_64__KTK_32 void(float8_e5m2[:, ::1], float8_e5m2[:, ::1], float32[:, ::1], TM=64, TK=32)
# CHECK:STDOUT:   TK: int64
# CHECK:STDOUT:   TM: int64
# CHECK:STDOUT:   a: array(float8_e5m2, 2d, C)
# CHECK:STDOUT:   acc: tile(float32, (64, 64))
# CHECK:STDOUT:   b: array(float8_e5m2, 2d, C)
# CHECK:STDOUT:   c: array(float32, 2d, C)
# CHECK:STDOUT:   ta: tile(float8_e5m2, (64, 32))
# CHECK:STDOUT:   tb: tile(float8_e5m2, (32, 64))
# CHECK:STDOUT: kernel dequant dequant__f8e4m3a1C_i32a1C_f32a1C__KTILE_64 void(float8_e4m3fn[::1], int32[::1], float32[::1], TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   i: tile(int32, (64,))
# CHECK:STDOUT:   ids: array(int32, 1d, C)
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   q: array(float8_e4m3fn, 1d, C)
# CHECK:STDOUT:   t: tile(float32, (64,))
# CHECK:STDOUT:   two: int16
