# ARGS: --diag-kinds compile %s --phase=check
# What compile-time folding rejects: `str` of a run-time value, a tuple slice whose bounds
# are not constant integers or whose step is zero, and a negative number as the unsigned
# float8_e8m0fnu (cuTile's test_strictly_typed_unsigned_float_constant_from_negative).
import cuda.tile as ct


@ct.kernel
def bad():
    # CHECK:STDERR: fail_tile_const_fold.py:[[@LINE+4]]:13: error: `str` takes a compile-time constant in tile kernels, found `int32` [tile-type]
    # CHECK:STDERR:     s = str(ct.bid(0))
    # CHECK:STDERR:             ^~~~~~~~~
    # CHECK:STDERR:
    s = str(ct.bid(0))
    t = (1, 2, 3)
    # CHECK:STDERR: fail_tile_const_fold.py:[[@LINE+4]]:11: error: the start of a tuple slice must be a constant integer or None, found `int32` [tile-type]
    # CHECK:STDERR:     u = t[ct.bid(0):]
    # CHECK:STDERR:           ^~~~~~~~~
    # CHECK:STDERR:
    u = t[ct.bid(0):]
    # CHECK:STDERR: fail_tile_const_fold.py:[[@LINE+4]]:13: error: slice step cannot be zero [invalid-call]
    # CHECK:STDERR:     v = t[::0]
    # CHECK:STDERR:             ^
    # CHECK:STDERR:
    v = t[::0]
    # CHECK:STDERR: fail_tile_const_fold.py:[[@LINE+4]]:11: error: the start of a tuple slice must be a constant integer or None, found `1.5` [tile-type]
    # CHECK:STDERR:     w = t[1.5:]
    # CHECK:STDERR:           ^~~
    # CHECK:STDERR:
    w = t[1.5:]
    # CHECK:STDERR: fail_tile_const_fold.py:[[@LINE+4]]:23: error: `-0.2` as float8_e8m0fnu: Negative values cannot be represented in an unsigned float format [tile-type]
    # CHECK:STDERR:     ct.float8_e8m0fnu(-0.2)
    # CHECK:STDERR:                       ^~~~
    # CHECK:STDERR:
    ct.float8_e8m0fnu(-0.2)
