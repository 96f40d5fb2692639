"""Tile kernels, fifteenth file: what cuTile's test files use that session 24 added (issue 22):
RawArrayMemory (`array.get_raw_memory()` with `load_offset`, `store_offset` and the
`atomic_*_offset` methods: element offsets from the array's base, masks, padding values,
scalar offsets, offsets of a 2-D array), a block's memory accesses in program order, and
module enum classes (cuTile's test_enum: members as constants, `Class(value)`, IntEnum
arithmetic and order, members passed to helpers). Checked on the CPU by tests/tile_sim
(raw_cases.py) and on the GPU by tests/gpu/cases/tile_cases15.py, both against NumPy.
"""
from enum import Enum, IntEnum

import cuda.tile as ct


class Mode(Enum):
    SCALE = "scale"
    SHIFT = "shift"
    TWICE = "scale"  # an alias of SCALE


class Level(IntEnum):
    LOW = 1
    HIGH = 4


def apply(t, mode):
    if mode == Mode.SCALE:
        return t * 2.0
    return t + 1.0


@ct.kernel
def enum_modes(x: "float32[::1]", y: "float32[::1]"):
    bid = ct.bid(0)
    t = ct.load(x, (bid,), shape=(32,))
    m = Mode("shift")
    u = apply(t, Mode.TWICE) + apply(t, m)
    if Level.LOW < Level.HIGH and Mode.SCALE != m and Mode.TWICE is Mode.SCALE:
        u = u * Level.HIGH
    ct.store(y, (bid,), tile=u + Level(1) + len(Mode.SHIFT.value))


@ct.kernel
def raw_copy(x: "float32[::1]", y: "float32[::1]", TILE: ct.Constant[int] = 64):
    bid = ct.bid(0)
    mem_in = x.get_raw_memory()
    mem_out = y.get_raw_memory()
    offsets = ct.arange(TILE, dtype=ct.int64) + bid * TILE
    t = mem_in.load_offset(offsets, mask=offsets < 200, padding_value=-1.0, latency=3)
    mem_out.store_offset(offsets, t * 2, mask=offsets < 250)


@ct.kernel
def raw_scalars(x: "int32[::1]", y: "int32[::1]"):
    mem_in = x.get_raw_memory()
    mem_out = y.get_raw_memory()
    v = mem_in.load_offset(3)
    mem_out.store_offset(0, v + 1)
    # A scalar value broadcast to the offsets' shape; int32 offsets.
    mem_out.store_offset(ct.arange(8, dtype=ct.int32) + 1, 7)
    ct.static_assert(mem_in.dtype == x.dtype)


@ct.kernel
def raw_offsets_2d(x: "float32[:, ::1]", y: "float32[:, ::1]", offsets: "int64[::1]"):
    # Memory offsets (row * 8 + column) of a row-major 8x8 array, loaded from an array.
    o = ct.load(offsets, (0,), shape=(16,))
    t = x.get_raw_memory().load_offset(o)
    y.get_raw_memory().store_offset(ct.reshape(o, (4, 4)), ct.reshape(t, (4, 4)) + 0.5)


@ct.kernel
def raw_atomics(counts: "int32[::1]", keys: "int32[::1]", best: "int32[::1]", n: "int32"):
    bid = ct.bid(0)
    k = ct.load(keys, (bid,), shape=(128,))
    valid = ct.arange(128, dtype=ct.int32) + bid * 128 < n
    counts.get_raw_memory().atomic_add_offset(k, 1, mask=valid)
    mem = best.get_raw_memory()
    mem.atomic_max_offset(0, ct.max(ct.where(valid, k, -1)))
    mem.atomic_cas_offset(1, 0, bid + 100, memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def interleaved_order(a: "float32[::1]"):
    # cuTile's test_raw_array_memory: ct.store/ct.load, gather/scatter and
    # load_offset/store_offset on one array, each read seeing the writes before it
    # (thread 0 writes a single element that every thread then reads).
    mem = a.get_raw_memory()
    ct.store(a, (0,), ct.full((1,), 100.0, dtype=ct.float32))
    t = mem.load_offset(0)
    mem.store_offset(1, t)
    t = ct.load(a, (1,), shape=(1,))
    t = t + 1.0
    ct.store(a, (2,), t)
    gather_idx = ct.arange(4, dtype=ct.int64)
    s = mem.load_offset(1)
    g = ct.gather(a, (gather_idx,))
    g = g + 1.0
    scatter_idx = ct.arange(4, dtype=ct.int64) + 4
    mem.store_offset(3, s)
    ct.scatter(a, (scatter_idx,), g)
    t = mem.load_offset(ct.arange(4, dtype=ct.int64) + 4)
    mem.store_offset(ct.arange(4, dtype=ct.int64) + 8, t)


@ct.kernel
def carried_rows(x: "float32[:, ::1]", n: "int32"):
    # Row i = row i - 1 + row i, in place, one row a trip: each trip reads the row the
    # previous one wrote (a prefix sum down the rows).
    for i in range(1, n):
        prev = ct.load(x, (i - 1, 0), shape=(1, 256))
        cur = ct.load(x, (i, 0), shape=(1, 256))
        ct.store(x, (i, 0), tile=prev + cur)


@ct.kernel
def known_tuple(x: "int32[::1]", n: ct.Constant[int] = 8):
    # Partly constant tuples: tup[1][0] (n // 2) and pair[1] (4 on both paths) are
    # compile-time constants, the tile widths, as is w (8 on both paths); tup[0] and
    # pair[0] are run-time values.
    tup = (ct.bid(0), (n // 2, ct.bid(0)))
    width = ct.ensure_constant(tup[1][0] * 2)
    if ct.bid(0) % 2 == 0:
        pair = (ct.bid(0) * 10, 4)
        w = n
    else:
        pair = (ct.bid(0) * 100, 4)
        w = 8
    t = ct.arange(width, dtype=x.dtype) + ct.arange(pair[1] * 2, dtype=x.dtype) + ct.arange(w, dtype=x.dtype)
    ct.store(x, (tup[0],), t + pair[0])
