"""Tile kernels, fifteenth file: what cuTile's test files use that session 24 added (issue 22):
RawArrayMemory (`array.get_raw_memory()` with `load_offset`, `store_offset` and the
`atomic_*_offset` methods: element offsets from the array's base, masks, padding values,
scalar offsets, offsets of a 2-D array). Checked on the CPU by tests/tile_sim (raw_cases.py)
and on the GPU by tests/gpu/cases/tile_cases15.py, both against NumPy.
"""

import cuda.tile as ct


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
