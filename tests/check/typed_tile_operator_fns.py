# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# cuTile's functions that are Python operators (ct.floordiv is `//`, ct.negative is
# unary `-`, ct.greater is `>`, ct.bitwise_lshift is `<<`, ...) type as the operators;
# the math functions floor/ceil/tan/sinh/cosh/isnan/atan2; `t.item()` of a one-element
# tile; 0-d tiles (a full reduction, `item()`) are scalars, usable as numbers (ct.cdiv,
# range, ct.full's fill value, a stored scalar broadcast to the array's rank).
import cuda.tile as ct


@ct.kernel
def operator_fns(x: "float32[::1]", y: "float32[::1]", i: "int32[::1]", out: "float32[::1]",
                 iout: "int32[::1]", flags: "bool_[::1]", TILE: ct.Constant[int] = 128):
    pid = ct.bid(0)
    tx = ct.load(x, index=(pid,), shape=(TILE,))
    ty = ct.load(y, index=(pid,), shape=(TILE,))
    ti = ct.load(i, index=(pid,), shape=(TILE,))
    arith = ct.negative(tx) + ct.floordiv(tx, ty) + ct.mod(tx, ty) + ct.pow(tx, 2)
    math = ct.floor(tx) + ct.ceil(ty) + ct.atan2(tx, ty) + ct.tan(tx) + ct.sinh(tx) + ct.cosh(ty)
    approx = ct.sqrt(ty, rounding_mode=ct.RoundingMode.APPROX) + ct.tanh(tx, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(out, index=(pid,), tile=arith + math + approx)
    bits = ct.bitwise_xor(ti, ct.bitwise_lshift(ti, 3)) + ct.bitwise_and(ti, 0x7F) + ct.bitwise_rshift(ti, 2)
    inverted = ct.bitwise_not(ti) + (ti << 1) + (ti >> 1) + (~ti)
    ct.store(iout, index=(pid,), tile=bits + inverted)
    cmp = ct.greater(tx, ty) | ct.less_equal(tx, 0.0) | ct.equal(ti, 3) | ct.not_equal(ti, ti)
    ct.store(flags, index=(pid,), tile=cmp | ct.isnan(tx) | ct.greater_equal(ty, tx) | ct.less(tx, 1.0))


@ct.kernel
def zero_d(x: "float32[:, ::1]", counts: "int32[::1]", out: "float32[:, ::1]", partial: "float32[::1]",
           TILE: ct.Constant[int] = 64):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(2, TILE))
    total = ct.sum(t)
    first = ct.load(counts, index=(pid,), shape=(1,)).item()
    blocks = ct.cdiv(first, 16)
    for j in range(first, blocks + first):
        ct.store(partial, index=(j,), tile=total)
    ct.store(out, (pid, 0), total)
    ct.store(out, index=(pid, 1), tile=0)
    ct.store(partial, index=(pid,), tile=ct.full((1,), total, dtype=ct.float32))


@ct.kernel
def loop_consts(a: "float32[:, ::1]", out: "float32[:, ::1]", TILE: ct.Constant[int] = 16):
    # Compile-time values bound in a runtime loop (TileGym's bmm and matmul): the same each
    # iteration, so usable after it.
    acc = ct.zeros((TILE, TILE), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], TILE)):
        pad = ct.PaddingMode.ZERO
        dtype = ct.tfloat32 if a.dtype == ct.float32 else a.dtype
        t = ct.load(a, index=(ct.bid(0), k), shape=(TILE, TILE), padding_mode=pad)
        acc = ct.mma(t.astype(dtype), t.astype(dtype), acc)
    ct.store(out, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def scans(x: "float32[:, ::1]", flags: "bool_[::1]", out: "float32[:, ::1]", counts: "int32[::1]",
          TILE: ct.Constant[int] = 64):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(2, TILE))
    rows = ct.cumsum(t, axis=1)
    cols = ct.cumprod(t, 0, reverse=True)
    ct.store(out, index=(ct.bid(0), 0), tile=rows + cols)
    n = ct.cumsum(ct.load(flags, index=(ct.bid(0),), shape=(TILE,)))
    ct.store(counts, index=(ct.bid(0),), tile=n)
# CHECK:STDOUT: kernel operator_fns operator_fns__f32a1C_f32a1C_i32a1C_f32a1C_i32a1C_b1a1C__KTILE_128 void(float32[::1], float32[::1], int32[::1], float32[::1], int32[::1], bool[::1], TILE=128)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   approx: tile(float32, (128,))
# CHECK:STDOUT:   arith: tile(float32, (128,))
# CHECK:STDOUT:   bits: tile(int32, (128,))
# CHECK:STDOUT:   cmp: tile(bool, (128,))
# CHECK:STDOUT:   flags: array(bool, 1d, C)
# CHECK:STDOUT:   i: array(int32, 1d, C)
# CHECK:STDOUT:   inverted: tile(int32, (128,))
# CHECK:STDOUT:   iout: array(int32, 1d, C)
# CHECK:STDOUT:   math: tile(float32, (128,))
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   pid: int32
# CHECK:STDOUT:   ti: tile(int32, (128,))
# CHECK:STDOUT:   tx: tile(float32, (128,))
# CHECK:STDOUT:   ty: tile(float32, (128,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT: kernel zero_d zero_d__f32a2C_i32a1C_f32a2C_f32a1C__KTILE_64 void(float32[:, ::1], int32[::1], float32[:, ::1], float32[::1], TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   blocks: int32
# CHECK:STDOUT:   counts: array(int32, 1d, C)
# CHECK:STDOUT:   first: int32
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   out: array(float32, 2d, C)
# CHECK:STDOUT:   partial: array(float32, 1d, C)
# CHECK:STDOUT:   pid: int32
# CHECK:STDOUT:   t: tile(float32, (2, 64))
# CHECK:STDOUT:   total: float32
# CHECK:STDOUT:   x: array(float32, 2d, C)
# CHECK:STDOUT: kernel loop_consts loop_consts__f32a2C_f32a2C__KTILE_16 void(float32[:, ::1], float32[:, ::1], TILE=16)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   a: array(float32, 2d, C)
# CHECK:STDOUT:   acc: tile(float32, (16, 16))
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   out: array(float32, 2d, C)
# CHECK:STDOUT:   t: tile(float32, (16, 16))
# CHECK:STDOUT: kernel scans scans__f32a2C_b1a1C_f32a2C_i32a1C__KTILE_64 void(float32[:, ::1], bool[::1], float32[:, ::1], int32[::1], TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   cols: tile(float32, (2, 64))
# CHECK:STDOUT:   counts: array(int32, 1d, C)
# CHECK:STDOUT:   flags: array(bool, 1d, C)
# CHECK:STDOUT:   n: tile(int32, (64,))
# CHECK:STDOUT:   out: array(float32, 2d, C)
# CHECK:STDOUT:   rows: tile(float32, (2, 64))
# CHECK:STDOUT:   t: tile(float32, (2, 64))
# CHECK:STDOUT:   x: array(float32, 2d, C)
