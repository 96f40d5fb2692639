# ARGS: --diag-kinds compile %s --phase=check
# RawArrayMemory (`x.get_raw_memory()`): element offsets only; not an array for ct.load,
# ct.gather or slicing; integer offsets; values, masks and padding broadcast to the
# offsets' shape; cuTile's keyword-only options.
import cuda.tile as ct


@ct.kernel
def load_from_raw(x: "float32[::1]"):
    mem = x.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:42: error: expected an array, found `RawArrayMemory(float32)` [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.load(mem, index=(0,), shape=(4,)))
    # CHECK:STDERR:                                          ^~~
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.load(mem, index=(0,), shape=(4,)))


@ct.kernel
def gather_from_raw(x: "float32[::1]"):
    mem = x.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:32: error: `ct.gather` takes an array as its first argument, found `RawArrayMemory(float32)` [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, ct.gather(mem, 0))
    # CHECK:STDERR:                                ^~~
    # CHECK:STDERR:
    ct.scatter(x, 0, ct.gather(mem, 0))


@ct.kernel
def raw_shape(x: "float32[::1]"):
    mem = x.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:22: error: `RawArrayMemory(float32)` has no attribute `shape` [unknown-attribute]
    # CHECK:STDERR:     ct.scatter(x, 0, mem.shape[0])
    # CHECK:STDERR:                      ^~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, mem.shape[0])


@ct.kernel
def float_offset(x: "float32[::1]"):
    mem = x.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:38: error: the offset of `load_offset` must be an integer tile or scalar, found `1.5` [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, mem.load_offset(1.5))
    # CHECK:STDERR:                                      ^~~
    # CHECK:STDERR:
    ct.scatter(x, 0, mem.load_offset(1.5))


@ct.kernel
def value_wider_than_offsets(y: "float32[::1]"):
    mem = y.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:52: error: the value `tile(float32, (8,))` does not broadcast to the indices' shape (1,) [tile-shape]
    # CHECK:STDERR:     mem.store_offset(ct.arange(1, dtype=ct.int64), ct.arange(8, dtype=ct.float32))
    # CHECK:STDERR:                                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    mem.store_offset(ct.arange(1, dtype=ct.int64), ct.arange(8, dtype=ct.float32))


@ct.kernel
def mask_positional(x: "float32[::1]"):
    mem = x.get_raw_memory()
    offsets = ct.arange(8, dtype=ct.int64)
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:53: error: `load_offset` takes 1 positional argument (`mask`, `padding_value` and `latency` are keyword-only) [invalid-call]
    # CHECK:STDERR:     ct.scatter(x, offsets, mem.load_offset(offsets, offsets < 4))
    # CHECK:STDERR:                                                     ^~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, offsets, mem.load_offset(offsets, offsets < 4))


@ct.kernel
def int_mask(x: "int32[::1]"):
    mem = x.get_raw_memory()
    offsets = ct.arange(8, dtype=ct.int64)
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:44: error: `mask=` of `atomic_add_offset` must be a bool tile or scalar, found `tile(int64, (8,))` [tile-type]
    # CHECK:STDERR:     mem.atomic_add_offset(offsets, 1, mask=offsets)
    # CHECK:STDERR:                                            ^~~~~~~
    # CHECK:STDERR:
    mem.atomic_add_offset(offsets, 1, mask=offsets)


@ct.kernel
def atomic_check_bounds(x: "int32[::1]"):
    mem = x.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:33: error: `atomic_add_offset` has no parameter `check_bounds` [invalid-call]
    # CHECK:STDERR:     mem.atomic_add_offset(0, 1, check_bounds=False)
    # CHECK:STDERR:                                 ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    mem.atomic_add_offset(0, 1, check_bounds=False)


@ct.kernel
def raw_of_raw(x: "int32[::1]"):
    mem = x.get_raw_memory()
    # CHECK:STDERR: fail_tile_raw_memory.py:[[@LINE+4]]:5: error: `RawArrayMemory(int32)` has no attribute `get_raw_memory` [unknown-attribute]
    # CHECK:STDERR:     mem.get_raw_memory()
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    mem.get_raw_memory()
