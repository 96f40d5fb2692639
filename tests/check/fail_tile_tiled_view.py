# ARGS: --diag-kinds compile %s --phase=check
# cuTile's TiledView (`x.tiled_view(tile_shape, padding_mode=, traversal_steps=)`): the
# tile shape and steps fit the array's rank, steps are positive constants, stores and
# atomic updates broadcast to the view's tile shape, a view is no array for ct.load or
# `.shape`, and its atomics take cuTile's dtypes.
import cuda.tile as ct


@ct.kernel
def rank_mismatch(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:18: error: expected shape length to be 1, got 2 (the tile shape of a view of a 1-d array) [tile-shape]
    # CHECK:STDERR:     x.tiled_view((1, 2))
    # CHECK:STDERR:                  ^~~~~~
    # CHECK:STDERR:
    x.tiled_view((1, 2))


@ct.kernel
def steps_rank(x: "float32[:, ::1]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:42: error: expected traversal_steps length to be 2, got 1 [tile-shape]
    # CHECK:STDERR:     x.tiled_view((4, 4), traversal_steps=(2,))
    # CHECK:STDERR:                                          ^~~~
    # CHECK:STDERR:
    x.tiled_view((4, 4), traversal_steps=(2,))


@ct.kernel
def steps_not_positive(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:37: error: element 0 of traversal_steps (0) is not positive [tile-shape]
    # CHECK:STDERR:     x.tiled_view(4, traversal_steps=0)
    # CHECK:STDERR:                                     ^
    # CHECK:STDERR:
    x.tiled_view(4, traversal_steps=0)


@ct.kernel
def steps_runtime(x: "float32[::1]", s: "int32"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:37: error: `traversal_steps` (an integer or a tuple of integers) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     x.tiled_view(4, traversal_steps=s)
    # CHECK:STDERR:                                     ^
    # CHECK:STDERR:
    x.tiled_view(4, traversal_steps=s)


@ct.kernel
def store_shape(x: "float32[::1]", y: "float32[::1]"):
    wrong = ct.load(x, 0, (8,))
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:30: error: tile shape (8,) is not broadcastable to the tiled view's tile shape (4,) [tile-shape]
    # CHECK:STDERR:     y.tiled_view(4).store(0, wrong)
    # CHECK:STDERR:                              ^~~~~
    # CHECK:STDERR:
    y.tiled_view(4).store(0, wrong)


@ct.kernel
def view_is_no_array(x: "float32[::1]"):
    tv = x.tiled_view(4)
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:31: error: expected an array, found `TiledView[array(float32, 1d, C),tile_shape=(4,),padding_mode=UNDETERMINED,traversal_steps=(4,)]` [tile-type]
    # CHECK:STDERR:     ct.store(x, (0,), ct.load(tv, (0,), (4,)))
    # CHECK:STDERR:                               ^~
    # CHECK:STDERR:
    ct.store(x, (0,), ct.load(tv, (0,), (4,)))


@ct.kernel
def view_has_no_shape(x: "float32[::1]"):
    tv = x.tiled_view(4)
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:23: error: `TiledView[array(float32, 1d, C),tile_shape=(4,),padding_mode=UNDETERMINED,traversal_steps=(4,)]` has no attribute `shape` [unknown-attribute]
    # CHECK:STDERR:     ct.store(x, (0,), tv.shape[0])
    # CHECK:STDERR:                       ^~~~~~~~
    # CHECK:STDERR:
    ct.store(x, (0,), tv.shape[0])


@ct.kernel
def index_rank(x: "float32[:, ::1]"):
    tv = x.tiled_view((4, 4))
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:33: error: the tile index has 1 element(s), but the array has 2 dimension(s) [tile-shape]
    # CHECK:STDERR:     ct.store(x, (0, 0), tv.load(0))
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    ct.store(x, (0, 0), tv.load(0))


@ct.kernel
def atomic_update_shape(x: "float32[::1]", y: "float32[::1]"):
    update = y.tiled_view(8).load(0)
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:42: error: update shape (8,) is not broadcastable to the tiled view's tile shape (16,) [tile-shape]
    # CHECK:STDERR:     x.tiled_view(16).atomic_store_add(0, update)
    # CHECK:STDERR:                                          ^~~~~~
    # CHECK:STDERR:
    x.tiled_view(16).atomic_store_add(0, update)


@ct.kernel
def atomic_dtype(x: "float16[::1]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:5: error: unsupported tiled view dtype `float16` for `atomic_store_xor` (it takes int32, int64, uint32 and uint64) [tile-type]
    # CHECK:STDERR:     x.tiled_view(16).atomic_store_xor(0, 1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x.tiled_view(16).atomic_store_xor(0, 1)


@ct.kernel
def atomic_bitwise_dtype(x: "int32[::1]", y: "int64[::1]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:41: error: `atomic_store_or` cannot implicitly cast the update `tile(int64, (16,))` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     x.tiled_view(16).atomic_store_or(0, y.tiled_view(16).load(0))
    # CHECK:STDERR:                                         ^~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x.tiled_view(16).atomic_store_or(0, y.tiled_view(16).load(0))


@ct.kernel
def load_positional(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:47: error: `load` of a tiled view takes 1 positional argument (`check_bounds`, `latency` and `allow_tma` are keyword-only) [invalid-call]
    # CHECK:STDERR:     ct.store(x, (0,), x.tiled_view(4).load(0, False))
    # CHECK:STDERR:                                               ^~~~~
    # CHECK:STDERR:
    ct.store(x, (0,), x.tiled_view(4).load(0, False))


@ct.kernel
def not_constant_stride(x: "float32[:, :]"):
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:22: error: the condition of `ct.static_assert` (here `bool`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.static_assert(x.strides[0] == 10)
    # CHECK:STDERR:                      ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.static_assert(x.strides[0] == 10)


@ct.kernel
def path_dependent(x: "float32[::1]", cond: "bool"):
    if cond:
        tv = x.tiled_view(64)
    else:
        tv = x.tiled_view(32)
    # CHECK:STDERR: fail_tile_tiled_view.py:[[@LINE+4]]:5: error: `tv` holds `TiledView[array(float32, 1d, C),tile_shape=(64,),padding_mode=UNDETERMINED,traversal_steps=(64,)]` or `TiledView[array(float32, 1d, C),tile_shape=(32,),padding_mode=UNDETERMINED,traversal_steps=(32,)]` here, depending on the path taken (`TiledView[array(float32, 1d, C),tile_shape=(32,),padding_mode=UNDETERMINED,traversal_steps=(32,)]` from line [[@LINE-4]]): such a variable keeps one type in a tile kernel (a tiled view's tile shape, padding and steps) [tile-type]
    # CHECK:STDERR:     tv.store(0, 1.0)
    # CHECK:STDERR:     ^~
    # CHECK:STDERR:
    tv.store(0, 1.0)
