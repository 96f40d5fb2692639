# ARGS: --diag-kinds compile %s --phase=check
# ct.extract takes a sub-tile shape that divides the tile and, where it is a constant, an
# index inside the sub-tile grid; ct.cat joins a tuple of two tiles of one shape and dtype.
import cuda.tile as ct


@ct.kernel
def not_dividing(x: "float32[::1]"):
    t = ct.load(x, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_extract_cat.py:[[@LINE+4]]:66: error: the sub-tile shape (32,) does not divide `tile(float32, (16,))` along axis 0 [tile-shape]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.extract(t, index=(0,), shape=(32,)))
    # CHECK:STDERR:                                                                  ^~~~~
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.extract(t, index=(0,), shape=(32,)))


@ct.kernel
def index_out_of_range(x: "float32[::1]"):
    t = ct.load(x, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_extract_cat.py:[[@LINE+4]]:55: error: sub-tile index 4 is out of range along axis 0: `tile(float32, (16,))` holds 4 sub-tiles of 4 there [tile-shape]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.extract(t, index=(4,), shape=(4,)))
    # CHECK:STDERR:                                                       ^
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.extract(t, index=(4,), shape=(4,)))


@ct.kernel
def wrong_rank(x: "float32[:, ::1]"):
    t = ct.load(x, index=(0, 0), shape=(4, 4))
    # CHECK:STDERR: fail_tile_extract_cat.py:[[@LINE+4]]:70: error: the sub-tile shape has 1 dimension(s), but `tile(float32, (4, 4))` has 2 [tile-shape]
    # CHECK:STDERR:     ct.store(x, index=(0, 0), tile=ct.extract(t, index=(0, 0), shape=(4,)))
    # CHECK:STDERR:                                                                      ^~~~
    # CHECK:STDERR:
    ct.store(x, index=(0, 0), tile=ct.extract(t, index=(0, 0), shape=(4,)))


@ct.kernel
def cat_not_a_pair(x: "float32[::1]"):
    t = ct.load(x, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_extract_cat.py:[[@LINE+4]]:41: error: `ct.cat` joins a pair of tiles written as a tuple, `(x, y)` [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.cat(t, 0))
    # CHECK:STDERR:                                         ^
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.cat(t, 0))


@ct.kernel
def cat_shapes_differ(x: "float32[::1]", y: "float16[::1]"):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ct.load(y, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_extract_cat.py:[[@LINE+4]]:41: error: `ct.cat` joins two tiles of the same shape and dtype, found `tile(float32, (16,))` and `tile(float16, (16,))` [tile-shape]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.cat((t, u), 0))
    # CHECK:STDERR:                                         ^~~~~~
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.cat((t, u), 0))


@ct.kernel
def cat_axis_out_of_range(x: "float32[::1]"):
    t = ct.load(x, index=(0,), shape=(8,))
    # CHECK:STDERR: fail_tile_extract_cat.py:[[@LINE+4]]:49: error: axis 1 is out of range for `tile(float32, (8,))` [tile-shape]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.cat((t, t), 1))
    # CHECK:STDERR:                                                 ^
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.cat((t, t), 1))
