# ARGS: --diag-kinds compile %s --phase=check
# ct.atomic_* diagnostics (docs/TILE.md, "Atomics"): indices as for ct.gather, cuTile's
# dtypes per operation, updates that broadcast and convert, bitwise updates of the
# array's own dtype, constant ct.MemoryOrder / ct.MemoryScope members that atomics take,
# positional-only and keyword-only arguments.
import cuda.tile as ct


@ct.kernel
def atomics(x: "float32[:, ::1]", h: "int32[::1]", b: "bfloat16[::1]", g: "float16[::1]",
            s: "int16[::1]", n: "int32"):
    i = ct.arange(16, dtype=ct.int32)
    j = ct.arange(32, dtype=ct.int32)
    f = ct.arange(16, dtype=ct.float32)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:27: error: `ct.atomic_add` on a 2-D array needs 2 indices, one per axis, found one (pass a tuple) [tile-shape]
    # CHECK:STDERR:     a1 = ct.atomic_add(x, i, 1.0)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    a1 = ct.atomic_add(x, i, 1.0)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:27: error: the index for axis 0 of `ct.atomic_add` must be an integer tile or scalar, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     a2 = ct.atomic_add(h, f, 1)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    a2 = ct.atomic_add(h, f, 1)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:24: error: `ct.atomic_max` does not take an array of `float32` (it takes int32, int64, uint32 and uint64) [tile-type]
    # CHECK:STDERR:     a3 = ct.atomic_max(x, (i[:, None], j[None, :]), 1.0)
    # CHECK:STDERR:                        ^
    # CHECK:STDERR:
    a3 = ct.atomic_max(x, (i[:, None], j[None, :]), 1.0)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:24: error: `ct.atomic_add` does not take an array of `bfloat16` (it takes int32, int64, uint32, uint64, float16, float32 and float64); bfloat16 is not supported by pykc yet [tile-type]
    # CHECK:STDERR:     a4 = ct.atomic_add(b, i, 1.0)
    # CHECK:STDERR:                        ^
    # CHECK:STDERR:
    a4 = ct.atomic_add(b, i, 1.0)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:25: error: `ct.atomic_xchg` does not take an array of `float16` (it takes int32, int64, uint32, uint64, float32 and float64) [tile-type]
    # CHECK:STDERR:     a5 = ct.atomic_xchg(g, i, 1.0)
    # CHECK:STDERR:                         ^
    # CHECK:STDERR:
    a5 = ct.atomic_xchg(g, i, 1.0)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:24: error: `ct.atomic_add` does not take an array of `int16` (it takes int32, int64, uint32, uint64, float16, float32 and float64) [tile-type]
    # CHECK:STDERR:     a6 = ct.atomic_add(s, i, 1)
    # CHECK:STDERR:                        ^
    # CHECK:STDERR:
    a6 = ct.atomic_add(s, i, 1)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:30: error: the update `tile(int32, (32,))` does not broadcast to the indices' shape (16,) [tile-shape]
    # CHECK:STDERR:     a7 = ct.atomic_add(h, i, j)
    # CHECK:STDERR:                              ^
    # CHECK:STDERR:
    a7 = ct.atomic_add(h, i, j)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:30: error: `ct.atomic_add` cannot implicitly cast the update `tile(float32, (16,))` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     a8 = ct.atomic_add(h, i, f)
    # CHECK:STDERR:                              ^
    # CHECK:STDERR:
    a8 = ct.atomic_add(h, i, f)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:30: error: `ct.atomic_and` cannot implicitly cast the update `tile(int64, (16,))` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     a9 = ct.atomic_and(h, i, i.astype(ct.int64))
    # CHECK:STDERR:                              ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    a9 = ct.atomic_and(h, i, i.astype(ct.int64))
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:46: error: `ct.atomic_add` cannot take `MemoryOrder.WEAK` (an atomic needs RELAXED, ACQUIRE, RELEASE or ACQ_REL) [tile-type]
    # CHECK:STDERR:     b1 = ct.atomic_add(h, i, 1, memory_order=ct.MemoryOrder.WEAK)
    # CHECK:STDERR:                                              ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b1 = ct.atomic_add(h, i, 1, memory_order=ct.MemoryOrder.WEAK)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:46: error: `ct.atomic_add` cannot take `MemoryScope.NONE` (an atomic needs BLOCK, DEVICE or SYS) [tile-type]
    # CHECK:STDERR:     b2 = ct.atomic_add(h, i, 1, memory_scope=ct.MemoryScope.NONE)
    # CHECK:STDERR:                                              ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b2 = ct.atomic_add(h, i, 1, memory_scope=ct.MemoryScope.NONE)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:46: error: `memory_order=` of `ct.atomic_add` must be a constant `ct.MemoryOrder` member, found `int32` [tile-type]
    # CHECK:STDERR:     b3 = ct.atomic_add(h, i, 1, memory_order=n)
    # CHECK:STDERR:                                              ^
    # CHECK:STDERR:
    b3 = ct.atomic_add(h, i, 1, memory_order=n)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:46: error: `memory_scope=` of `ct.atomic_add` must be a constant `ct.MemoryScope` member, found `cuda.tile.MemoryOrder.RELAXED` [tile-type]
    # CHECK:STDERR:     b4 = ct.atomic_add(h, i, 1, memory_scope=ct.MemoryOrder.RELAXED)
    # CHECK:STDERR:                                              ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b4 = ct.atomic_add(h, i, 1, memory_scope=ct.MemoryOrder.RELAXED)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:46: error: `cuda.tile.MemoryOrder` has no attribute `SEQ_CST` [unknown-attribute]
    # CHECK:STDERR:     b5 = ct.atomic_add(h, i, 1, memory_order=ct.MemoryOrder.SEQ_CST)
    # CHECK:STDERR:                                              ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b5 = ct.atomic_add(h, i, 1, memory_order=ct.MemoryOrder.SEQ_CST)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:33: error: `ct.atomic_add` has no parameter `ordering` [invalid-call]
    # CHECK:STDERR:     b6 = ct.atomic_add(h, i, 1, ordering=ct.MemoryOrder.RELAXED)
    # CHECK:STDERR:                                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b6 = ct.atomic_add(h, i, 1, ordering=ct.MemoryOrder.RELAXED)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:33: error: `ct.atomic_add` takes 3 positional arguments (`check_bounds`, `memory_order` and `memory_scope` are keyword-only) [invalid-call]
    # CHECK:STDERR:     b7 = ct.atomic_add(h, i, 1, True)
    # CHECK:STDERR:                                 ^~~~
    # CHECK:STDERR:
    b7 = ct.atomic_add(h, i, 1, True)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:37: error: `ct.atomic_add`'s `update` is positional-only [invalid-call]
    # CHECK:STDERR:     b8 = ct.atomic_add(h, i, update=1)
    # CHECK:STDERR:                                     ^
    # CHECK:STDERR:
    b8 = ct.atomic_add(h, i, update=1)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:10: error: `ct.atomic_cas` needs its `desired` argument [invalid-call]
    # CHECK:STDERR:     b9 = ct.atomic_cas(h, i, 1)
    # CHECK:STDERR:          ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b9 = ct.atomic_cas(h, i, 1)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:33: error: `ct.atomic_cas` cannot implicitly cast the desired value `tile(float32, (16,))` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     c1 = ct.atomic_cas(h, i, 1, f)
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    c1 = ct.atomic_cas(h, i, 1, f)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:49: error: `check_bounds=` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     c2 = ct.atomic_cas(h, i, 1, 2, check_bounds=n)
    # CHECK:STDERR:                                                 ^
    # CHECK:STDERR:
    c2 = ct.atomic_cas(h, i, 1, 2, check_bounds=n)
    # CHECK:STDERR: fail_tile_atomic.py:[[@LINE+4]]:30: error: `ct.atomic_xor` cannot implicitly cast the update `1.5` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     c3 = ct.atomic_xor(h, i, 1.5)
    # CHECK:STDERR:                              ^~~
    # CHECK:STDERR:
    c3 = ct.atomic_xor(h, i, 1.5)
