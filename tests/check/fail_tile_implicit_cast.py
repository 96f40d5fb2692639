# ARGS: --diag-kinds compile %s --phase=check
# What a tile kernel writes into an array is cast implicitly only as cuTile casts it
# (cuda/tile/_ir/cast_ops.py check_implicit_cast): a tile's dtype must promote to the
# array's (float16 and bfloat16 hold neither the other, no narrowing, no float into an
# integer array, no change of signedness); a Python number by kind and range. The last
# kernel holds the writes cuTile accepts.
import cuda.tile as ct


@ct.kernel
def refused(h: "float16[::1]", i32: "int32[::1]", flags: "bool_[::1]", i8: "int8[::1]",
            i64: "int64[::1]", f32: "float32[::1]"):
    b = ct.load(f32, index=(0,), shape=(16,)).astype(ct.bfloat16)
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:34: error: the stored tile `tile(bfloat16, (16,))` is incompatible with the array's dtype `float16`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(h, index=(0,), tile=b)
    # CHECK:STDERR:                                  ^
    # CHECK:STDERR:
    ct.store(h, index=(0,), tile=b)
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:34: error: the stored tile `tile(float32, (16,))` is incompatible with the array's dtype `float16`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(h, index=(0,), tile=ct.load(f32, index=(0,), shape=(16,)))
    # CHECK:STDERR:                                  ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.store(h, index=(0,), tile=ct.load(f32, index=(0,), shape=(16,)))
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:36: error: the stored tile `tile(int64, (16,))` is incompatible with the array's dtype `int32`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(i32, index=(0,), tile=ct.load(i64, index=(0,), shape=(16,)))
    # CHECK:STDERR:                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.store(i32, index=(0,), tile=ct.load(i64, index=(0,), shape=(16,)))
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:36: error: the stored tile `1.5` is incompatible with the array's dtype `int32`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(i32, index=(0,), tile=1.5)
    # CHECK:STDERR:                                    ^~~
    # CHECK:STDERR:
    ct.store(i32, index=(0,), tile=1.5)
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:38: error: the stored tile `2` is incompatible with the array's dtype `bool`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(flags, index=(0,), tile=2)
    # CHECK:STDERR:                                      ^
    # CHECK:STDERR:
    ct.store(flags, index=(0,), tile=2)
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:35: error: the stored tile `300` is incompatible with the array's dtype `int8`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(i8, index=(0,), tile=300)
    # CHECK:STDERR:                                   ^~~
    # CHECK:STDERR:
    ct.store(i8, index=(0,), tile=300)
    u = ct.arange(16, dtype=ct.uint32)
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:36: error: the stored tile `tile(uint32, (16,))` is incompatible with the array's dtype `int64`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.store(i64, index=(0,), tile=u)
    # CHECK:STDERR:                                    ^
    # CHECK:STDERR:
    ct.store(i64, index=(0,), tile=u)
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:50: error: `ct.scatter` cannot implicitly cast the value `tile(float32, (16,))` to the array's `float16` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.scatter(h, ct.arange(16, dtype=ct.int32), ct.full((16,), 1.0, dtype=ct.float32))
    # CHECK:STDERR:                                                  ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(h, ct.arange(16, dtype=ct.int32), ct.full((16,), 1.0, dtype=ct.float32))
    # CHECK:STDERR: fail_tile_implicit_cast.py:[[@LINE+4]]:53: error: `ct.atomic_add` cannot implicitly cast the update `tile(float32, (16,))` to the array's `float16` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.atomic_add(h, ct.arange(16, dtype=ct.int32), ct.full((16,), 1.0, dtype=ct.float32))
    # CHECK:STDERR:                                                     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.atomic_add(h, ct.arange(16, dtype=ct.int32), ct.full((16,), 1.0, dtype=ct.float32))


@ct.kernel
def accepted(h: "float16[::1]", i32: "int32[::1]", flags: "bool_[::1]", f32: "float32[::1]",
             i64: "int64[::1]"):
    ct.store(f32, index=(0,), tile=ct.load(h, index=(0,), shape=(16,)))
    ct.store(f32, index=(0,), tile=ct.load(i32, index=(0,), shape=(16,)))
    ct.store(i64, index=(0,), tile=ct.load(i32, index=(0,), shape=(16,)))
    ct.store(i32, index=(0,), tile=ct.load(flags, index=(0,), shape=(16,)))
    ct.store(flags, index=(0,), tile=1)
    ct.store(h, index=(0,), tile=7)
    ct.store(h, index=(0,), tile=0.5)
    ct.scatter(f32, ct.arange(16, dtype=ct.int32), ct.load(h, index=(0,), shape=(16,)))
