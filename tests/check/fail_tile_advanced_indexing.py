# ARGS: --diag-kinds compile %s --phase=check
# ct.load_advanced_indexing / ct.store_advanced_indexing (docs/TILE.md, "Advanced
# indexing"): a tuple with one index per axis, exactly one 1-D integer tile among them,
# Slice lengths that are constant powers of two, a tile that fits the indexed shape,
# keyword-only options; ct.Slice only inside those indices.
import cuda.tile as ct


@ct.kernel
def advanced(x: "int32[:, ::1]", v: "int32[::1]", n: "int32"):
    rows = ct.arange(8, dtype=ct.int32)
    f = ct.arange(8, dtype=ct.float32)
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:38: error: `ct.load_advanced_indexing` on a 2-D array needs a tuple of 2 indices, one per axis: one 1-D integer tile and `ct.Slice(start, length)` for the others [tile-shape]
    # CHECK:STDERR:     a = ct.load_advanced_indexing(x, rows)
    # CHECK:STDERR:                                      ^~~~
    # CHECK:STDERR:
    a = ct.load_advanced_indexing(x, rows)
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:45: error: `ct.load_advanced_indexing` takes exactly one integer tile among its indices (axis 0 has one already); give the other axes as `ct.Slice(start, length)` [tile-type]
    # CHECK:STDERR:     b = ct.load_advanced_indexing(x, (rows, rows))
    # CHECK:STDERR:                                             ^~~~
    # CHECK:STDERR:
    b = ct.load_advanced_indexing(x, (rows, rows))
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:38: error: `ct.load_advanced_indexing` needs one 1-D integer tile among its indices (the axis it gathers along); with only `ct.Slice`s use `ct.load`/`ct.store` [tile-type]
    # CHECK:STDERR:     c = ct.load_advanced_indexing(x, (ct.Slice(0, 4), ct.Slice(n, 4)))
    # CHECK:STDERR:                                      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    c = ct.load_advanced_indexing(x, (ct.Slice(0, 4), ct.Slice(n, 4)))
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:39: error: the index for axis 0 of `ct.load_advanced_indexing` must be a 1-D integer tile or `ct.Slice(start, length)`, found `tile(float32, (8,))` [tile-type]
    # CHECK:STDERR:     d = ct.load_advanced_indexing(x, (f, ct.Slice(0, 4)))
    # CHECK:STDERR:                                       ^
    # CHECK:STDERR:
    d = ct.load_advanced_indexing(x, (f, ct.Slice(0, 4)))
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:57: error: the length of `ct.Slice` must be a power of two, found 3 [tile-shape]
    # CHECK:STDERR:     e = ct.load_advanced_indexing(x, (rows, ct.Slice(0, 3)))
    # CHECK:STDERR:                                                         ^
    # CHECK:STDERR:
    e = ct.load_advanced_indexing(x, (rows, ct.Slice(0, 3)))
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:57: error: the length of `ct.Slice` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     g = ct.load_advanced_indexing(x, (rows, ct.Slice(0, n)))
    # CHECK:STDERR:                                                         ^
    # CHECK:STDERR:
    g = ct.load_advanced_indexing(x, (rows, ct.Slice(0, n)))
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:62: error: `ct.load_advanced_indexing` takes 2 positional arguments (`padding_mode`, `latency` and `allow_tma` are keyword-only) [invalid-call]
    # CHECK:STDERR:     h = ct.load_advanced_indexing(x, (rows, ct.Slice(0, 4)), ct.PaddingMode.ZERO)
    # CHECK:STDERR:                                                              ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    h = ct.load_advanced_indexing(x, (rows, ct.Slice(0, 4)), ct.PaddingMode.ZERO)
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:59: error: the tile `tile(int32, (8, 8))` does not broadcast to the indices' shape (8, 4) [tile-shape]
    # CHECK:STDERR:     ct.store_advanced_indexing(x, (rows, ct.Slice(0, 4)), ct.full((8, 8), 1, dtype=ct.int32))
    # CHECK:STDERR:                                                           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.store_advanced_indexing(x, (rows, ct.Slice(0, 4)), ct.full((8, 8), 1, dtype=ct.int32))
    # CHECK:STDERR: fail_tile_advanced_indexing.py:[[@LINE+4]]:9: error: `ct.Slice(start, length)` is an index of `ct.load_advanced_indexing` and `ct.store_advanced_indexing`, written inside their indices tuple [tile-type]
    # CHECK:STDERR:     k = ct.Slice(0, 4)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    k = ct.Slice(0, 4)
