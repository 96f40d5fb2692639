"""Tile kernels, eighth file: cuTile's 8-bit floats (float8_e4m3fn, float8_e5m2,
float8_e8m0fnu; issue 22: TileGym's FP8 quantisation and FP8 GEMM kernels): loads and
stores of 8-bit float arrays, conversions to and from float32 (round to nearest even,
saturating; E8M0 rounds up), and ct.mma of E4M3 and E5M2 tiles (float16 tensor-core
operands, float32 accumulation). Checked on the CPU by tests/tile_sim (float8_cases.py,
against ml_dtypes) and on the GPU by tests/gpu/cases/tile_cases8.py (against PyTorch).
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def decode(a: "float8_e4m3fn[::1]", b: "float8_e5m2[::1]", c: "float8_e8m0fnu[::1]",
           out: "float32[:, ::1]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    ct.store(out, index=(0, pid), tile=ct.reshape(ct.load(a, index=(pid,), shape=(TILE,)).astype(ct.float32), (1, TILE)))
    ct.store(out, index=(1, pid), tile=ct.reshape(ct.load(b, index=(pid,), shape=(TILE,)).astype(ct.float32), (1, TILE)))
    ct.store(out, index=(2, pid), tile=ct.reshape(ct.load(c, index=(pid,), shape=(TILE,)).astype(ct.float32), (1, TILE)))


@ct.kernel
def encode(x: "float32[::1]", a: "float8_e4m3fn[::1]", b: "float8_e5m2[::1]", c: "float8_e8m0fnu[::1]",
           TILE: ConstInt = 128):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(a, index=(pid,), tile=t.astype(ct.float8_e4m3fn))
    ct.store(b, index=(pid,), tile=ct.astype(t, ct.float8_e5m2))
    ct.store(c, index=(pid,), tile=t.astype(ct.float8_e8m0fnu))


@ct.kernel
def mma_e4m3(a: "float8_e4m3fn[:, ::1]", b: "float8_e4m3fn[:, ::1]", c: "float32[:, ::1]",
             TM: ConstInt = 64, TN: ConstInt = 64, TK: ConstInt = 32):
    pid = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], TK)):
        ta = ct.load(a, index=(pid, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, 0), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(pid, 0), tile=acc)


@ct.kernel
def mma_e5m2(a: "float8_e5m2[:, ::1]", b: "float8_e5m2[:, ::1]", c: "float32[:, ::1]",
             TM: ConstInt = 64, TN: ConstInt = 64, TK: ConstInt = 32):
    pid = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], TK)):
        ta = ct.load(a, index=(pid, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, 0), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(pid, 0), tile=acc)
