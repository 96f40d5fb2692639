# ARGS: --diag-kinds compile %s --phase=check
# Tile shapes (docs/TILE.md): compile-time powers of two, one per array dimension;
# operands must broadcast; indices have the array's rank.
import cuda.tile as ct


@ct.kernel
def shapes(x: "float32[:, ::1]", v: "float32[::1]", n: "int32", T: ct.Constant[int] = 100):
    bid = ct.bid(0)
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:42: error: tile dimensions must be powers of two, found 100 [tile-shape]
    # CHECK:STDERR:     a = ct.load(x, index=(bid, 0), shape=(1, T))
    # CHECK:STDERR:                                          ^~~~~~
    # CHECK:STDERR:
    a = ct.load(x, index=(bid, 0), shape=(1, T))
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:42: error: the tile shape has 3 dimension(s), but the array has 2 [tile-shape]
    # CHECK:STDERR:     b = ct.load(x, index=(bid, 0), shape=(1, 64, 2))
    # CHECK:STDERR:                                          ^~~~~~~~~~
    # CHECK:STDERR:
    b = ct.load(x, index=(bid, 0), shape=(1, 64, 2))
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:26: error: the tile index has 1 element(s), but the array has 2 dimension(s) [tile-shape]
    # CHECK:STDERR:     c = ct.load(x, index=(bid,), shape=(1, 64))
    # CHECK:STDERR:                          ^~~~~~
    # CHECK:STDERR:
    c = ct.load(x, index=(bid,), shape=(1, 64))
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:46: error: a tile dimension must be a compile-time constant [not-constant]
    # CHECK:STDERR:     d = ct.load(x, index=(bid, 0), shape=(1, n))
    # CHECK:STDERR:                                              ^
    # CHECK:STDERR:
    d = ct.load(x, index=(bid, 0), shape=(1, n))
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:49: error: shapes of `tile(float32, (64,))` and `tile(float32, (32,))` do not broadcast [tile-shape]
    # CHECK:STDERR:     e = ct.load(v, index=(bid,), shape=(64,)) + ct.load(v, index=(bid,), shape=(32,))
    # CHECK:STDERR:                                                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    e = ct.load(v, index=(bid,), shape=(64,)) + ct.load(v, index=(bid,), shape=(32,))
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:60: error: axis 1 is out of range for `tile(float32, (64,))` [tile-shape]
    # CHECK:STDERR:     f = ct.sum(ct.load(v, index=(bid,), shape=(64,)), axis=1)
    # CHECK:STDERR:                                                            ^
    # CHECK:STDERR:
    f = ct.sum(ct.load(v, index=(bid,), shape=(64,)), axis=1)
    # CHECK:STDERR: fail_tile_shapes.py:[[@LINE+4]]:36: error: `ct.store` needs a tile with the array's 1 dimension(s), found `tile(float32, (2, 64))` [tile-shape]
    # CHECK:STDERR:     ct.store(v, index=(bid,), tile=ct.load(x, index=(bid, 0), shape=(2, 64)))
    # CHECK:STDERR:                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.store(v, index=(bid,), tile=ct.load(x, index=(bid, 0), shape=(2, 64)))
