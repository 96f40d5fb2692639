# ARGS: --diag-kinds compile %s --phase=check --sig k(int32[::1],int32)
# Diagnostics of tuple comparisons: `in` needs a tuple on its right, tuples have no order
# here, and tiles or arrays inside compared tuples are refused.
import cuda.tile as ct


@ct.kernel
def k(x, a):
    # CHECK:STDERR: fail_tile_tuple_compare.py:[[@LINE+4]]:9: error: unsupported operand types for `in`: `int32` and `int32` [mismatched-operand-types]
    # CHECK:STDERR:     b = a in a
    # CHECK:STDERR:         ^~~~~~
    # CHECK:STDERR:
    b = a in a
    # CHECK:STDERR: fail_tile_tuple_compare.py:[[@LINE+4]]:9: error: unsupported operand types for `<`: `UniTuple(int32 x 2)` and `UniTuple(int32 x 2)` [mismatched-operand-types]
    # CHECK:STDERR:     c = (a, 1) < (a, 2)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    c = (a, 1) < (a, 2)
    t = ct.load(x, (0,), (16,))
    # CHECK:STDERR: fail_tile_tuple_compare.py:[[@LINE+4]]:9: error: unsupported operand types for `==`: `Tuple(tile(int32, (16,)), int32)` and `Tuple(tile(int32, (16,)), int32)` [mismatched-operand-types]
    # CHECK:STDERR:     d = (t, 1) == (t, 1)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    d = (t, 1) == (t, 1)
    # CHECK:STDERR: fail_tile_tuple_compare.py:[[@LINE+4]]:15: error: a tuple of runtime values holds numbers, tiles and tuples of them, found `array(int32, 1d, C)` [tile-type]
    # CHECK:STDERR:     e = x in (x,)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    e = x in (x,)
