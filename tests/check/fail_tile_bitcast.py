# ARGS: --diag-kinds compile %s --phase=check
"""`ct.bitcast` keeps the bits: two non-bool dtypes of one width, a tile or run-time scalar."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bad(x: "float32[::1]", b: "bool_[::1]", TILE: ConstInt = 64):
    tx = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    # CHECK:STDERR: fail_tile_bitcast.py:[[@LINE+4]]:9: error: `ct.bitcast` keeps the bits, so it needs two non-bool dtypes of one width, found `float32` (32 bits) and `float16` (16 bits) [tile-type]
    # CHECK:STDERR:     w = ct.bitcast(tx, ct.float16)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    w = ct.bitcast(tx, ct.float16)
    # CHECK:STDERR: fail_tile_bitcast.py:[[@LINE+4]]:9: error: `ct.bitcast` takes no bools (their bits are not a number's), found `bool` [tile-type]
    # CHECK:STDERR:     c = ct.bitcast(ct.load(b, index=(ct.bid(0),), shape=(TILE,)), ct.int8)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    c = ct.bitcast(ct.load(b, index=(ct.bid(0),), shape=(TILE,)), ct.int8)
    # CHECK:STDERR: fail_tile_bitcast.py:[[@LINE+4]]:20: error: `ct.bitcast` takes a tile or a run-time scalar, found `3` [tile-type]
    # CHECK:STDERR:     k = ct.bitcast(3, ct.float32)
    # CHECK:STDERR:                    ^
    # CHECK:STDERR:
    k = ct.bitcast(3, ct.float32)
