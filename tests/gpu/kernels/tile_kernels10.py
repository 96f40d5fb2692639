"""Tile kernels, tenth file: tuples of arrays and numbers as kernel parameters (issue 22;
cuTile's grouped GEMM and AllGatherMatmul take lists of tensors, its tests tuples of
arrays and scalars). A tuple indexed with constants (negative, nested), with a run-time
index (the group a block works on, a loop over the tuple), and `len`; and a helper
imported from a sibling module (helpers/tile_math.py). Checked on the CPU
by tests/tile_sim (tuple_cases.py) and on the GPU by tests/gpu/cases/tile_cases10.py,
both against NumPy.
"""

import cuda.tile as ct

from helpers.tile_math import softsign_scaled

ConstInt = ct.Constant[int]


@ct.kernel
def sum_arrays(arrays: "UniTuple(float32[::1], 3)", out: "float32[::1]", TILE: ConstInt = 64):
    """out = arrays[0] + arrays[1] + arrays[2], one tile a block, through a loop over the tuple."""
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(len(arrays)):
        a = arrays[i]
        acc = acc + ct.load(a, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(bid,), tile=acc)


@ct.kernel
def grouped_scale(xs: "UniTuple(float32[:, ::1], 3)", ys: "UniTuple(float32[:, ::1], 3)",
                  factors: "UniTuple(int32, 3)", TILE: ConstInt = 16):
    """ys[g] = xs[g] * factors[g] + g for group g = bid(1): arrays of different extents,
    chosen per block by a run-time index; a block past its group's rows does nothing."""
    g = ct.bid(1)
    x = xs[g]
    y = ys[-3 + g]
    if ct.bid(0) * TILE < x.shape[0]:
        t = ct.load(x, index=(ct.bid(0), 0), shape=(TILE, 8), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, index=(ct.bid(0), 0), tile=t * factors[g] + g)


@ct.kernel
def mixed_tuple(pair: "Tuple(int32[::1], int32)", out: "int32[::1]",
                nested: "Tuple(int32, UniTuple(int32, 2), int32)"):
    """out = pair[0] + pair[1] + nested[0] - nested[-1] + nested[1][0] * nested[1][-1]
    + 100 * len(nested): constant, negative and nested indices."""
    t = ct.load(pair[0], (0,), (16,))
    inner = nested[1]
    ct.store(out, (0,), t + pair[1] + nested[0] - nested[-1] + inner[0] * nested[1][-1] + 100 * len(nested))


@ct.kernel
def tuple_variables(x: "float32[:, ::1]", y: "float32[:, ::1]", k: "int32", TILE: ConstInt = 16):
    """y's tile (bid, 0) = x's times weights[k % 3]: a tile index and weights held in tuple
    variables, a weight picked at run time."""
    idx = (ct.bid(0), 0)
    weights = (k + 1, k * 2, k - 5)
    t = ct.load(x, index=idx, shape=(TILE, 8), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=idx, tile=t * weights[k % 3])


@ct.kernel
def shape_tuples(x: "float32[:, :]", out: "int32[::1]"):
    """out = (rows, columns, row stride, column stride, rows of shape[0]) of a strided view:
    `array.shape` and `array.strides` as tuples, unpacked and held in names."""
    m, n = x.shape
    strides = x.strides
    shape = x.shape
    values = (m, n, strides[0], strides[1], shape[0] * 10)
    for k in range(len(values)):
        ct.store(out, index=(k,), tile=ct.full((1,), values[k], dtype=ct.int32))


@ct.kernel
def sibling_helper(x: "float32[::1]", y: "float32[::1]", TILE: ConstInt = 64):
    """y = softsign(x) * 0.5 through a helper imported from a sibling module."""
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0),), tile=softsign_scaled(t))


@ct.kernel
def annotated_names(x: "float32[::1]", y: "float32[::1]", TILE: ConstInt = 64):
    """y's first TILE/2 elements of each tile = x's times 3: annotated assignments
    (`HALF: ConstInt = TILE // 2`, `s: float = ...`), as TileGym's rope kernels write them."""
    HALF: ConstInt = TILE // 2
    s: float = 3.0
    t: ct.float32 = ct.load(x, index=(ct.bid(0),), shape=(HALF,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0),), tile=t * s)


@ct.kernel
def retyped_names(x: "float16[::1]", y: "float32[::1]", n: "int32", TILE: ConstInt = 64):
    """A name given another type where no join needs both (TileGym's rope_quantize and
    liger's fused_add_rms_norm): per branch of a run-time `if`, and inside a loop body that
    assigns it before reading it. y = x * 2 + 1 (as float32) where n > 0, else x + 3."""
    bid = ct.bid(0)
    if n > 0:
        t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        t = ct.astype(t, ct.float32) * 2.0
        ct.store(y, index=(bid,), tile=t + 1.0)
    else:
        t = ct.astype(ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        ct.store(y, index=(bid,), tile=t + 3.0)
    for k in range(2):
        u = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        u = ct.astype(u, ct.float32)
        if k == 1:
            ct.store(y, index=(bid,), tile=ct.load(y, index=(bid,), shape=(TILE,)) + u * 0.0)


@ct.kernel
def rebound_constant(x: "float32[::1]", y: "float32[::1]", TILE: ConstInt = 64, N: ConstInt = 1):
    """A Constant parameter rebound to a run-time value (liger's rope: `cos_bs =
    COS.shape[0]`), then a run-time conditional expression on it:
    y = x * (7 if len(x) == 1 else len(x))."""
    N = x.shape[0]
    scale = 7 if N == 1 else N
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0),), tile=t * ct.astype(scale, ct.float32))


@ct.kernel
def bitcasts(x: "float32[::1]", y: "int32[::1]", h: "float16[::1]", u: "uint16[::1]", TILE: ConstInt = 64):
    """cuTile's test_cast `array_bitcast`: y = x's bits as int32; u = h's bits as uint16
    with the sign bit cleared."""
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=ct.bitcast(tx, y.dtype))
    th = ct.load(h, index=(bid,), shape=(TILE,))
    ct.store(u, index=(bid,), tile=ct.bitcast(th, ct.uint16) & 0x7FFF)


@ct.kernel
def inserts(x: "float32[::1]", y: "float32[::1]", m: "float16[:, ::1]", n: "float16[:, ::1]",
            k: "int32", TILE: ConstInt = 128, SUB: ConstInt = 32):
    """cuTile's test_insert: y = x with sub-tile k (of SUB elements) plus 5 and element 0 set
    to -1 (a number inserted); n = m with its (1, 2) block of 16x8 plus 5."""
    tx = ct.load(x, index=(0,), shape=(TILE,))
    sub = ct.extract(tx, index=(k,), shape=(SUB,)) + 5.0
    tx = tx.insert(k, sub)
    tx = ct.insert(tx, (0,), -1.0)
    ct.store(y, index=(0,), tile=tx)
    tm = ct.load(m, index=(0, 0), shape=(32, 32))
    block = ct.extract(tm, index=(1, 2), shape=(16, 8)) + 5.0
    ct.store(n, index=(0, 0), tile=ct.insert(tm, (1, 2), block))


@ct.kernel
def straight_constants(x: "float32[::1]", y: "float32[::1]", out: "int32[::1]", N: ConstInt = 5, TILE: ConstInt = 64):
    """cuTile's test_loose_typing: a name rebound in straight-line code keeps each constant,
    so `a - t` stays int8 (t is a loosely typed number); `off = 0` then `off += ct.bid(0)`
    turns a constant into a run-time value."""
    t = (N + 2) * 3
    t = -t
    t ^= N
    a = ct.arange(4, dtype=ct.int8)
    b = a - t
    ct.static_assert(b.dtype == ct.int8)
    ct.scatter(out, ct.arange(4, dtype=ct.int32), b)
    off = 0
    off += ct.bid(0)
    tx = ct.load(x, index=(off,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=tx * 2.0)


@ct.kernel
def byte_packing(x: "float32[::1]", b: "uint8[::1]", y: "int16[::1]", m: "float16[:, ::1]", n: "float16[:, ::1]",
                 TILE: ConstInt = 64):
    """cuTile's test_pack_unpack: a float32 tile's bytes (b), those bytes read back as int16
    (y, the halves of each float), and a 2-D float16 tile packed, unpacked and reshaped (n = m)."""
    tx = ct.load(x, index=(0,), shape=(TILE,))
    packed = ct.pack_to_bytes(tx)
    ct.store(b, index=(0,), tile=packed)
    ct.store(y, index=(0,), tile=ct.unpack_from_bytes(packed, y.dtype))
    tm = ct.load(m, index=(ct.bid(0), 0), shape=(16, 32))
    back = ct.reshape(ct.unpack_from_bytes(ct.pack_to_bytes(tm), ct.float16), (16, 32))
    ct.store(n, index=(ct.bid(0), 0), tile=back)


@ct.kernel
def asserts(x: "float32[::1]", cond: "bool_[::1]", y: "float32[::1]", TILE: ConstInt = 128):
    """cuTile's test_assert: a block whose conditions all hold copies its tile; one with a
    false element prints the message once and traps (the simulator checks that case; on a
    GPU it ends the context, so the GPU case runs only the passing one)."""
    bid = ct.bid(0)
    cond_tile = ct.load(cond, index=(bid,), shape=(TILE,))
    ct.assert_(cond_tile, "assert failed")
    ct.assert_(bid >= 0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=tx)


@ct.kernel
def prints(x: "float32[::1]", y: "int32[:, ::1]", flags: "bool_[::1]", TILE: ConstInt = 8):
    """cuTile's test_print: ct.printf, ct.print and print with f-strings, format specs,
    `sep=`/`end=`, tiles (1-D, 2-D, bool), tuples and numbers; one line per block,
    printed by its thread 0 (checked against the text in the simulator)."""
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.printf("tile[%d]:%.5f\n", bid, tx)
    ct.print(f"tile[{bid}]: a={tx:.6f} b={tx + tx:.6f}")
    ct.print("tile:", ct.astype(tx, ct.int32), sep='')
    ty = ct.load(y, index=(0, 0), shape=(2, 4))
    print(ty, end='|\n')
    print(y.shape, (1, "a'b", 2.5), bid > 0, f"{bid:+04d}")
    ct.printf("printf%%[%d]:%x\n", bid, ct.load(flags, index=(bid,), shape=(TILE,)))
