# ARGS: --diag-kinds compile %s --phase=check
"""`ct.unpack_from_bytes` reads a 1-D uint8 tile into whole elements; neither takes bools
nor compile-time numbers."""
import cuda.tile as ct


@ct.kernel
def bad(x: "float32[::1]", b: "bool_[::1]", u: "uint8[::1]"):
    tx = ct.load(x, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_pack_bytes.py:[[@LINE+4]]:30: error: `ct.unpack_from_bytes` takes a 1-D tile of uint8 (what `ct.pack_to_bytes` gives), found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     a = ct.unpack_from_bytes(tx, ct.int32)
    # CHECK:STDERR:                              ^~
    # CHECK:STDERR:
    a = ct.unpack_from_bytes(tx, ct.int32)
    tu = ct.load(u, index=(0,), shape=(4,))
    # CHECK:STDERR: fail_tile_pack_bytes.py:[[@LINE+4]]:9: error: `ct.unpack_from_bytes`: 4 bytes do not make whole `float64` elements (8 bytes each) [tile-shape]
    # CHECK:STDERR:     c = ct.unpack_from_bytes(tu, ct.float64)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    c = ct.unpack_from_bytes(tu, ct.float64)
    # CHECK:STDERR: fail_tile_pack_bytes.py:[[@LINE+4]]:26: error: `ct.pack_to_bytes` takes numeric dtypes (no bools), found `bool` [tile-type]
    # CHECK:STDERR:     d = ct.pack_to_bytes(ct.load(b, index=(0,), shape=(16,)))
    # CHECK:STDERR:                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    d = ct.pack_to_bytes(ct.load(b, index=(0,), shape=(16,)))
    # CHECK:STDERR: fail_tile_pack_bytes.py:[[@LINE+4]]:26: error: `ct.pack_to_bytes` takes a tile or a run-time scalar, found `3` [tile-type]
    # CHECK:STDERR:     e = ct.pack_to_bytes(3)
    # CHECK:STDERR:                          ^
    # CHECK:STDERR:
    e = ct.pack_to_bytes(3)
    # CHECK:STDERR: fail_tile_pack_bytes.py:[[@LINE+4]]:34: error: `ct.unpack_from_bytes` takes numeric dtypes (no bools), found `bool` [tile-type]
    # CHECK:STDERR:     f = ct.unpack_from_bytes(tu, ct.bool_)
    # CHECK:STDERR:                                  ^~~~~~~~
    # CHECK:STDERR:
    f = ct.unpack_from_bytes(tu, ct.bool_)
