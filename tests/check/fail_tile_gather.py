# ARGS: --diag-kinds compile %s --phase=check
# ct.gather / ct.scatter (docs/TILE.md, "Gather and scatter"): one integer index per
# array axis, index shapes that broadcast, mask and padding_value/value operands that
# broadcast to the indices' shape, a bool mask, an array to read or write, values that
# convert to the array's dtype (NumPy's same-kind rule), keyword-only options.
import cuda.tile as ct


@ct.kernel
def gathers(x: "float32[:, ::1]", v: "float32[::1]", k: "int32[::1]", n: "int32"):
    i = ct.arange(16, dtype=ct.int32)
    j = ct.arange(32, dtype=ct.int32)
    f = ct.arange(16, dtype=ct.float32)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:22: error: `ct.gather` on a 2-D array needs 2 indices, one per axis, found one (pass a tuple) [tile-shape]
    # CHECK:STDERR:     a = ct.gather(x, i)
    # CHECK:STDERR:                      ^
    # CHECK:STDERR:
    a = ct.gather(x, i)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:22: error: `ct.gather` on a 2-D array needs 2 indices, one per axis, found 3 [tile-shape]
    # CHECK:STDERR:     b = ct.gather(x, (i, j, i))
    # CHECK:STDERR:                      ^~~~~~~~~
    # CHECK:STDERR:
    b = ct.gather(x, (i, j, i))
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:22: error: the index for axis 0 of `ct.gather` must be an integer tile or scalar, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     c = ct.gather(v, f)
    # CHECK:STDERR:                      ^
    # CHECK:STDERR:
    c = ct.gather(v, f)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:22: error: shapes of `tile(int32, (16,))` and `tile(int32, (32,))` do not broadcast [tile-shape]
    # CHECK:STDERR:     d = ct.gather(x, (i, j))
    # CHECK:STDERR:                      ^~~~~~
    # CHECK:STDERR:
    d = ct.gather(x, (i, j))
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:53: error: the mask `tile(bool, (16,))` does not broadcast to the indices' shape (16, 32) [tile-shape]
    # CHECK:STDERR:     e = ct.gather(x, (i[:, None], j[None, :]), mask=i > 0)
    # CHECK:STDERR:                                                     ^~~~~
    # CHECK:STDERR:
    e = ct.gather(x, (i[:, None], j[None, :]), mask=i > 0)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:30: error: `mask=` of `ct.gather` must be a bool tile or scalar, found `tile(int32, (16,))` [tile-type]
    # CHECK:STDERR:     g = ct.gather(v, i, mask=i)
    # CHECK:STDERR:                              ^
    # CHECK:STDERR:
    g = ct.gather(v, i, mask=i)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:39: error: the padding value `tile(float32, (32,))` does not broadcast to the indices' shape (16,) [tile-shape]
    # CHECK:STDERR:     h = ct.gather(v, i, padding_value=j.astype(ct.float32))
    # CHECK:STDERR:                                       ^~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    h = ct.gather(v, i, padding_value=j.astype(ct.float32))
    t = ct.load(v, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:19: error: `ct.gather` takes an array as its first argument, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     m = ct.gather(t, i)
    # CHECK:STDERR:                   ^
    # CHECK:STDERR:
    m = ct.gather(t, i)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:39: error: `ct.gather` cannot implicitly cast the padding value `0.5` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     o = ct.gather(k, i, padding_value=0.5)
    # CHECK:STDERR:                                       ^~~
    # CHECK:STDERR:
    o = ct.gather(k, i, padding_value=0.5)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:25: error: `ct.gather` has no parameter `pad` [invalid-call]
    # CHECK:STDERR:     p = ct.gather(v, i, pad=1.0)
    # CHECK:STDERR:                         ^~~~~~~
    # CHECK:STDERR:
    p = ct.gather(v, i, pad=1.0)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:25: error: `ct.gather` takes 2 positional arguments (`mask`, `padding_value`, `check_bounds` and `latency` are keyword-only) [invalid-call]
    # CHECK:STDERR:     q = ct.gather(v, i, i > 0)
    # CHECK:STDERR:                         ^~~~~
    # CHECK:STDERR:
    q = ct.gather(v, i, i > 0)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:38: error: `check_bounds=` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     r = ct.gather(v, i, check_bounds=n > 0)
    # CHECK:STDERR:                                      ^~~~~
    # CHECK:STDERR:
    r = ct.gather(v, i, check_bounds=n > 0)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:22: error: `ct.scatter` cannot implicitly cast the value `tile(float32, (16,))` to the array's `int32` (cuTile converts only to a dtype that holds every value: use `.astype`) [tile-type]
    # CHECK:STDERR:     ct.scatter(k, i, f)
    # CHECK:STDERR:                      ^
    # CHECK:STDERR:
    ct.scatter(k, i, f)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:22: error: the value `tile(float32, (32,))` does not broadcast to the indices' shape (16,) [tile-shape]
    # CHECK:STDERR:     ct.scatter(v, i, j.astype(ct.float32))
    # CHECK:STDERR:                      ^~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(v, i, j.astype(ct.float32))
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:16: error: `ct.scatter` takes an array as its first argument, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     ct.scatter(t, i, 1.0)
    # CHECK:STDERR:                ^
    # CHECK:STDERR:
    ct.scatter(t, i, 1.0)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:32: error: the mask `tile(bool, (32,))` does not broadcast to the indices' shape (16,) [tile-shape]
    # CHECK:STDERR:     ct.scatter(v, i, 1.0, mask=j > 0)
    # CHECK:STDERR:                                ^~~~~
    # CHECK:STDERR:
    ct.scatter(v, i, 1.0, mask=j > 0)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:29: error: `ct.scatter` takes 3 positional arguments (`mask`, `check_bounds` and `latency` are keyword-only) [invalid-call]
    # CHECK:STDERR:     ct.scatter(v, i, i > 0, i > 1)
    # CHECK:STDERR:                             ^~~~~
    # CHECK:STDERR:
    ct.scatter(v, i, i > 0, i > 1)
    # CHECK:STDERR: fail_tile_gather.py:[[@LINE+4]]:19: error: `ct.scatter` on a 1-D array needs 1 index, one per axis, found 2 [tile-shape]
    # CHECK:STDERR:     ct.scatter(v, (i, i), 1.0)
    # CHECK:STDERR:                   ^~~~~~
    # CHECK:STDERR:
    ct.scatter(v, (i, i), 1.0)
