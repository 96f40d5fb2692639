# ARGS: --diag-kinds compile %s --phase=check --sig k(float32[::1],int32)
# Diagnostics of ct.astile: ragged nesting, a length that is no power of two, an empty
# tuple, arrays and strings as leaves; arithmetic on a tuple other than `+` of two tuples.
import cuda.tile as ct


@ct.kernel
def k(x, a):
    # CHECK:STDERR: fail_tile_astile.py:[[@LINE+4]]:28: error: `ct.astile` takes nested tuples of one shape (a tile's), found a ragged one [tile-shape]
    # CHECK:STDERR:     r = ct.astile(((1, 2), (3,)), dtype=ct.int32)
    # CHECK:STDERR:                            ^~~~
    # CHECK:STDERR:
    r = ct.astile(((1, 2), (3,)), dtype=ct.int32)
    # CHECK:STDERR: fail_tile_astile.py:[[@LINE+4]]:19: error: tuple length 3 in `ct.astile`'s value is not a power of 2 [tile-shape]
    # CHECK:STDERR:     s = ct.astile((1, 2, 3), dtype=ct.int32)
    # CHECK:STDERR:                   ^~~~~~~~~
    # CHECK:STDERR:
    s = ct.astile((1, 2, 3), dtype=ct.int32)
    # CHECK:STDERR: fail_tile_astile.py:[[@LINE+4]]:19: error: tuple length 0 in `ct.astile`'s value is not a power of 2 [tile-shape]
    # CHECK:STDERR:     t = ct.astile((), dtype=ct.int32)
    # CHECK:STDERR:                   ^~
    # CHECK:STDERR:
    t = ct.astile((), dtype=ct.int32)
    # CHECK:STDERR: fail_tile_astile.py:[[@LINE+4]]:20: error: `ct.astile` takes numbers, scalars and nested tuples of them, found `array(float32, 1d, C)` [tile-type]
    # CHECK:STDERR:     u = ct.astile((x, a), dtype=ct.int32)
    # CHECK:STDERR:                    ^
    # CHECK:STDERR:
    u = ct.astile((x, a), dtype=ct.int32)
    # CHECK:STDERR: fail_tile_astile.py:[[@LINE+4]]:28: error: `ct.astile` takes nested tuples of one shape (a tile's), found a ragged one [tile-shape]
    # CHECK:STDERR:     v = ct.astile(((1, 2), a), dtype=ct.int32)
    # CHECK:STDERR:                            ^
    # CHECK:STDERR:
    v = ct.astile(((1, 2), a), dtype=ct.int32)
    # CHECK:STDERR: fail_tile_astile.py:[[@LINE+4]]:9: error: unsupported operand types for `+`: `int32` and `UniTuple(int32 x 2)` [mismatched-operand-types]
    # CHECK:STDERR:     w = a + (a, a)
    # CHECK:STDERR:         ^~~~~~~~~~
    # CHECK:STDERR:
    w = a + (a, a)
