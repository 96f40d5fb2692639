"""Tile kernels, second file (docs/TILE.md): the language cuTile's samples use beyond the
first slice. Helper functions called from kernels (plain `def`s, inlined), tuples they
return, dtypes and padding modes held in variables, compile-time `if` and `x if c else
y`, the builtins min/max/abs, tfloat32 rounding, argmax/argmin, reshape, permute,
transpose, broadcast_to, expand_dims and `t[:, None]`. Checked by
tests/gpu/cases/tile_cases2.py on the GPU and by tests/tile_sim/tile_sim.py on the CPU.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


# ------------------------------------------------------------ MatMul's swizzle, no mma

# cuTile's MatMul sample maps block ids onto output tiles in groups of GROUP_SIZE_M rows
# (swizzle_2d, verbatim); this kernel uses it to scale A tile by tile into C.
def swizzle_2d(M, N, tm, tn, GROUP_SIZE_M):
    bid = ct.bid(0)
    num_bid_m = ct.cdiv(M, tm)
    num_bid_n = ct.cdiv(N, tn)
    num_bid_in_group = GROUP_SIZE_M * num_bid_n
    group_id = bid // num_bid_in_group
    first_bid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_bid_m - first_bid_m, GROUP_SIZE_M)
    bid_m = first_bid_m + (bid % group_size_m)
    bid_n = (bid % num_bid_in_group) // group_size_m
    return bid_m, bid_n


@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def swizzled_scale(A: "float16[:, ::1]", C: "float32[:, ::1]", tm: ConstInt = 32,
                   tn: ConstInt = 64):
    GROUP_SIZE_M = 4
    M = A.shape[0]
    N = A.shape[1]
    bidx, bidy = swizzle_2d(M, N, tm, tn, GROUP_SIZE_M)
    zero_pad = ct.PaddingMode.ZERO
    # cuTile's MatMul picks its operand dtype this way (there: tfloat32 for float32).
    dtype = ct.float32 if A.dtype == ct.float16 else A.dtype
    a = ct.load(A, index=(bidx, bidy), shape=(tm, tn), padding_mode=zero_pad).astype(dtype)
    scale = 2.0 if bidx % 2 == 0 else 0.5
    ct.store(C, index=(bidx, bidy), tile=(a * scale).astype(C.dtype))


# x rounded to tfloat32 (to nearest, ties to even), back to float32.
@ct.kernel
def round_tf32(x: "float32[::1]", y: "float32[::1]", TILE: ConstInt = 512):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    dtype = ct.tfloat32 if x.dtype == ct.float32 else x.dtype
    ct.store(y, index=(pid,), tile=t.astype(dtype).astype(ct.float32))


# ---------------------------------------------------------------- helper functions

def centered(t, axis):
    # A tile argument, a compile-time axis, a tile result.
    return t - ct.sum(t, axis=axis, keepdims=True) / t.shape[axis]


def clamp_last(i, n):
    # An early return under a runtime condition.
    if i >= n:
        return n - 1
    return i


def scaled(t, factor=3, absolute=False):
    # Defaults, keywords, a compile-time branch on a parameter, a nested helper.
    if not absolute:
        return centered(t, 1) * factor
    return abs(centered(t, 1)) * factor


def load_row(x, row, TILE, pad):
    # An array, a padding mode and a dtype comparison passed through.
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=pad)
    if x.dtype == ct.float16:
        return t.astype(ct.float32)
    return t


@ct.kernel
def helpers(x: "float32[:, ::1]", y: "float32[:, ::1]", last: "int32[::1]",
            TILE: ConstInt = 256, ABS: ConstBool = False):
    pid = ct.bid(0)
    t = load_row(x, pid, TILE, ct.PaddingMode.ZERO)
    r = scaled(t, absolute=ABS) + scaled(t, 1, True)
    ct.store(y, index=(pid, 0), tile=r)
    lo = max(pid - 1, 0, -5)
    hi = clamp_last(pid + 1, ct.num_blocks(0))
    ct.store(last, index=(pid,), tile=ct.full((1,), lo * 1000 + hi, dtype=ct.int32))


def row_terms(x, row, j, TILE):
    # A float16 load and a reduction inside a helper called in a loop (LayerNorm's
    # bwd_helper): the helper's tiles take the kernel's layouts (its vector width is the
    # kernel's, 8 halves) and its reduction the loop's barriers.
    t = ct.load(x, index=(row, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    return t, ct.sum(t.astype(ct.float32), axis=1)


@ct.kernel
def helpers_f16(x: "float16[:, ::1]", y: "float16[:, ::1]", sums: "float32[::1]", TILE: ConstInt = 1024):
    row = ct.bid(0)
    total = ct.full((1,), 0, dtype=ct.float32)
    for j in range(ct.num_tiles(x, axis=1, shape=(1, TILE))):
        t, s = row_terms(x, row, j, TILE)
        total += s
        ct.store(y, index=(row, j), tile=t * 2)
    ct.store(sums, index=(row,), tile=total)


# ------------------------------------------------------------------- argmax / argmin

@ct.kernel
def arg_rows(x: "float32[:, ::1]", amax: "int32[::1]", amin: "int32[::1]",
             flat: "int32[::1]", ROWS: ConstInt = 4, TILE: ConstInt = 512):
    pid = ct.bid(0)
    hi = ct.load(x, index=(pid, 0), shape=(ROWS, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    lo = ct.load(x, index=(pid, 0), shape=(ROWS, TILE), padding_mode=ct.PaddingMode.POS_INF)
    ct.store(amax, index=(pid,), tile=ct.argmax(hi, axis=1))
    ct.store(amin, index=(pid,), tile=ct.argmin(lo, axis=-1))
    # Over the whole tile: a row-major flat index.
    ct.store(flat, index=(pid,), tile=ct.argmax(hi, keepdims=True).reshape((1,)))


@ct.kernel
def arg_cols_i32(x: "int32[:, ::1]", amax: "int32[::1]", amin: "int32[::1]",
                 ROWS: ConstInt = 64, COLS: ConstInt = 32):
    pid = ct.bid(0)
    t = ct.load(x, index=(0, pid), shape=(ROWS, COLS), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(amax, index=(pid,), tile=ct.argmax(t, axis=0))
    u = ct.load(x, index=(0, pid), shape=(ROWS, COLS), padding_mode=ct.PaddingMode.POS_INF)
    ct.store(amin, index=(pid,), tile=ct.argmin(u, 0, keepdims=True).reshape((COLS,)))


# ----------------------------------------------------------------- shape operations

@ct.kernel
def shapes(x: "float32[:, ::1]", xt: "float32[:, ::1]", p3: "float32[:, :, ::1]",
           rel: "float32[:, ::1]", R: ConstInt = 16, C: ConstInt = 64):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(R, C))
    ct.store(xt, index=(0, pid), tile=ct.transpose(t))
    cube = ct.reshape(t, (R, 8, -1))
    ct.store(p3, index=(pid, 0, 0), tile=ct.permute(cube, (2, 0, 1)))
    rows = ct.sum(t, axis=1)
    cols = ct.max(t, axis=0)
    centered = t - ct.broadcast_to(rows[:, None], (R, C)) / C
    ct.store(rel, index=(pid, 0), tile=centered * ct.expand_dims(cols, 0) + t[None, ...].reshape((R, C)))


@ct.kernel
def transpose_f16(x: "float16[:, ::1]", y: "float16[:, ::1]", T: ConstInt = 32):
    pid = ct.bid(0)
    n = ct.num_tiles(x, axis=1, shape=(T, T))
    bi = pid // n
    bj = pid % n
    t = ct.load(x, index=(bi, bj), shape=(T, T))
    ct.store(y, index=(bj, bi), tile=t.transpose())


# A tile smaller than the block (64 elements, 128 threads): argmax/argmin over partial
# layouts, with +-inf padding.
@ct.kernel
def arg_small(x: "float32[::1]", amax: "int32[::1]", amin: "int32[::1]", TILE: ConstInt = 64):
    pid = ct.bid(0)
    hi = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.NEG_INF)
    lo = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.POS_INF)
    ct.store(amax, index=(pid,), tile=ct.argmax(hi, axis=0, keepdims=True))
    ct.store(amin, index=(pid,), tile=ct.argmin(lo, keepdims=True))


# ------------------------------------------------------------ division by one value

# Each element of a row divided by the row's divisor (a one-element tile, broadcast) and
# by a scalar parameter: IEEE division bit for bit (docs/TILE.md, "Division"), special
# values included.
@ct.kernel
def div_uniform(x: "float32[:, ::1]", d: "float32[::1]", y: "float32[:, ::1]",
                z: "float32[:, ::1]", s: "float32", TILE: ConstInt = 1024):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE))
    den = ct.load(d, index=(row,), shape=(1,))
    ct.store(y, index=(row, 0), tile=t / den)
    ct.store(z, index=(row, 0), tile=t / s)


# ------------------------------------------------------------ approximate exp

# ct.exp with cuTile's rounding_mode: FULL (the default: libdevice's accurate expf) and
# APPROX (ex2.approx of x * log2(e)).
@ct.kernel
def exp_modes(x: "float32[::1]", full: "float32[::1]", approx: "float32[::1]", TILE: ConstInt = 1024):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(full, index=(pid,), tile=ct.exp(t, rounding_mode=ct.RoundingMode.FULL))
    ct.store(approx, index=(pid,), tile=ct.exp(t, rounding_mode=ct.RoundingMode.APPROX))
