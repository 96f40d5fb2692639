"""Tile kernels, seventh file: cuTile's functions that are Python operators (ct.negative,
ct.floordiv, ct.mod, ct.pow, ct.bitwise_*, ct.greater, ...; issue 22: TileGym's Qwen3.5
and dropout kernels call them), the math functions floor/ceil/tan/sinh/cosh/isnan/atan2,
`t.item()`, and 0-d tiles used as numbers (a full reduction as ct.cdiv's operand, a loop
bound, ct.full's fill value, and stored into a 2-D array). Checked on the CPU by
tests/tile_sim (operator_cases.py) and on the GPU by tests/gpu/cases/tile_cases7.py,
both against NumPy.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def float_fns(x: "float32[::1]", y: "float32[::1]", out: "float32[:, ::1]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    tx = ct.load(x, index=(pid,), shape=(TILE,))
    ty = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(out, index=(0, pid), tile=ct.reshape(ct.negative(tx), (1, TILE)))
    ct.store(out, index=(1, pid), tile=ct.reshape(ct.floordiv(tx, ty), (1, TILE)))
    ct.store(out, index=(2, pid), tile=ct.reshape(ct.mod(tx, ty), (1, TILE)))
    ct.store(out, index=(3, pid), tile=ct.reshape(ct.pow(ct.abs(tx), 3), (1, TILE)))
    ct.store(out, index=(4, pid), tile=ct.reshape(ct.floor(tx) + ct.ceil(ty), (1, TILE)))
    ct.store(out, index=(5, pid), tile=ct.reshape(ct.atan2(tx, ty), (1, TILE)))
    ct.store(out, index=(6, pid), tile=ct.reshape(ct.tan(tx * 0.25), (1, TILE)))
    ct.store(out, index=(7, pid), tile=ct.reshape(ct.sinh(tx) - ct.cosh(ty), (1, TILE)))


@ct.kernel
def int_fns(a: "int32[::1]", k: "int32[::1]", out: "int32[:, ::1]", flags: "bool_[:, ::1]",
            TILE: ConstInt = 128):
    pid = ct.bid(0)
    ta = ct.load(a, index=(pid,), shape=(TILE,))
    tk = ct.load(k, index=(pid,), shape=(TILE,))
    ct.store(out, index=(0, pid), tile=ct.reshape(ct.bitwise_xor(ta, ct.bitwise_lshift(ta, 8)), (1, TILE)))
    ct.store(out, index=(1, pid), tile=ct.reshape(ct.bitwise_and(ta, 0x7FFFFFFF) | ct.bitwise_or(ta, 3), (1, TILE)))
    ct.store(out, index=(2, pid), tile=ct.reshape(ct.bitwise_rshift(ta, tk), (1, TILE)))
    ct.store(out, index=(3, pid), tile=ct.reshape(ta << tk, (1, TILE)))
    ct.store(out, index=(4, pid), tile=ct.reshape(ct.bitwise_not(ta) + (~tk), (1, TILE)))
    ct.store(out, index=(5, pid), tile=ct.reshape(ct.floordiv(ta, 7) + ct.mod(ta, -5), (1, TILE)))
    ct.store(flags, index=(0, pid), tile=ct.reshape(ct.greater(ta, tk) & ct.not_equal(ta, 0), (1, TILE)))
    ct.store(flags, index=(1, pid), tile=ct.reshape(ct.less_equal(ta, tk) | ct.equal(tk, 3), (1, TILE)))
    ct.store(flags, index=(2, pid), tile=ct.reshape(ct.greater_equal(ta, 0) ^ ct.less(tk, 10), (1, TILE)))


@ct.kernel
def nan_flags(x: "float32[::1]", flags: "bool_[::1]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    tx = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(flags, index=(pid,), tile=ct.isnan(tx))


@ct.kernel
def zero_d(x: "float32[:, ::1]", counts: "int32[::1]", sums: "float32[:, ::1]", partial: "float32[::1]",
           ROWS: ConstInt = 2, TILE: ConstInt = 64):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(ROWS, TILE))
    total = ct.sum(t)
    first = ct.load(counts, index=(pid,), shape=(1,)).item()
    # cdiv of a 0-d value, a loop bound from it, a scalar stored into a 2-D array.
    for j in range(ct.cdiv(first, 4)):
        ct.store(sums, index=(pid, j + 1), tile=total + j)
    ct.store(sums, index=(pid, 0), tile=ct.reshape(total, (1, 1)))
    ct.store(partial, index=(pid,), tile=ct.full((1,), ct.max(t), dtype=ct.float32))


@ct.kernel
def approx_fns(x: "float32[::1]", y: "float32[::1]", out: "float32[:, ::1]", TILE: ConstInt = 128):
    # GPU only (tests/gpu/cases/tile_cases7.py): PTX's sqrt.approx.f32 and tanh.approx.f32.
    pid = ct.bid(0)
    tx = ct.load(x, index=(pid,), shape=(TILE,))
    ty = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(out, index=(0, pid), tile=ct.reshape(ct.sqrt(tx, rounding_mode=ct.RoundingMode.APPROX), (1, TILE)))
    ct.store(out, index=(1, pid), tile=ct.reshape(ct.tanh(ty, rounding_mode=ct.RoundingMode.APPROX), (1, TILE)))


@ct.kernel(num_worker_warps=8)
def forms(x: "float32[:, :, ::1]", acc: "float32[:, :, ::1]", out: "float32[:, :, ::1]",
          ramp: "float32[::1]", B: ConstInt = 2, M: ConstInt = 8, K: ConstInt = 16):
    # A batched ct.mma (CUDA cores) with use_fast_acc=, ct.cat of one tile, the extract
    # method, ct.arange with run-time start= and step=, float("-inf") as a fill value.
    pid = ct.bid(0)
    tx = ct.load(x, index=(pid, 0, 0), shape=(B, M, K))
    ty = ct.permute(tx, (0, 2, 1))
    ta = ct.load(acc, index=(pid, 0, 0), shape=(B, M, M))
    r = ct.mma(tx, ty, ta, use_fast_acc=False)
    first = ct.cat((r,), 0).extract((0, 0, 0), (1, M, M))
    ct.store(out, index=(pid, 0, 0), tile=ct.cat((first, ct.extract(r, (1, 0, 0), (1, M, M))), 0))
    lo = ct.full((K,), -float("inf"), dtype=ct.float32)
    steps = ct.arange(K, dtype=ct.float32, start=pid * 100, step=0.5)
    ct.store(ramp, index=(pid,), tile=ct.maximum(lo, steps))


@ct.kernel
def scans(x: "float32[:, ::1]", k: "int32[:, ::1]", flags: "bool_[::1]", fwd: "float32[:, ::1]",
          back: "float32[:, ::1]", prods: "int32[:, ::1]", counts: "int32[::1]",
          ROWS: ConstInt = 4, COLS: ConstInt = 64, N: ConstInt = 256):
    # ct.cumsum along rows and (reversed) along columns, ct.cumprod of integers, and a
    # cumsum of bools (int32 counts, TileGym's moe_align_block).
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(ROWS, COLS))
    ct.store(fwd, index=(pid, 0), tile=ct.cumsum(t, axis=1))
    ct.store(back, index=(pid, 0), tile=ct.cumsum(t, 0, reverse=True))
    ct.store(prods, index=(pid, 0), tile=ct.cumprod(ct.load(k, index=(pid, 0), shape=(ROWS, COLS)), axis=1))
    ct.store(counts, index=(pid,), tile=ct.cumsum(ct.load(flags, index=(pid,), shape=(N,))))
