# ARGS: --diag-kinds compile %s --phase=check
"""`ct.insert` puts a tile of x's dtype whose shape divides x's (or a number) at a sub-tile
index inside the grid."""
import cuda.tile as ct


@ct.kernel
def bad(x: "float32[::1]", h: "float16[::1]"):
    t = ct.load(x, index=(0,), shape=(16,))
    th = ct.load(h, index=(0,), shape=(4,))
    # CHECK:STDERR: fail_tile_insert.py:[[@LINE+4]]:28: error: `ct.insert` inserts a tile of `tile(float32, (16,))`'s dtype, found `tile(float16, (4,))`: convert it with `astype` [tile-type]
    # CHECK:STDERR:     a = ct.insert(t, (0,), th)
    # CHECK:STDERR:                            ^~
    # CHECK:STDERR:
    a = ct.insert(t, (0,), th)
    # CHECK:STDERR: fail_tile_insert.py:[[@LINE+4]]:28: error: the inserted shape (32,) does not divide `tile(float32, (16,))` along axis 0 [tile-shape]
    # CHECK:STDERR:     b = ct.insert(t, (0,), ct.load(x, index=(0,), shape=(32,)))
    # CHECK:STDERR:                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b = ct.insert(t, (0,), ct.load(x, index=(0,), shape=(32,)))
    # CHECK:STDERR: fail_tile_insert.py:[[@LINE+4]]:23: error: sub-tile index 4 is out of range along axis 0: `tile(float32, (16,))` holds 4 sub-tiles of 4 there [tile-shape]
    # CHECK:STDERR:     c = ct.insert(t, (4,), ct.load(x, index=(0,), shape=(4,)))
    # CHECK:STDERR:                       ^
    # CHECK:STDERR:
    c = ct.insert(t, (4,), ct.load(x, index=(0,), shape=(4,)))
    # CHECK:STDERR: fail_tile_insert.py:[[@LINE+4]]:19: error: `ct.insert` inserts into a tile, found `3.0` [tile-type]
    # CHECK:STDERR:     d = ct.insert(3.0, (0,), 1.0)
    # CHECK:STDERR:                   ^~~
    # CHECK:STDERR:
    d = ct.insert(3.0, (0,), 1.0)
    # CHECK:STDERR: fail_tile_insert.py:[[@LINE+4]]:28: error: `ct.insert` inserts a tile or a number, found `array(float32, 1d, C)` [tile-type]
    # CHECK:STDERR:     e = ct.insert(t, (0,), x)
    # CHECK:STDERR:                            ^
    # CHECK:STDERR:
    e = ct.insert(t, (0,), x)
