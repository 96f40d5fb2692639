# ARGS: --diag-kinds compile %s --phase=check --sig=mixed(Tuple(float32[::1],int32),int32) --sig=arrays(UniTuple(float32[::1],2),float32[::1])
# Tuple parameters: a run-time index into elements of different types, an index out of
# range, `len` of an array, a tuple of arrays unpacked or held in a variable, passed to a
# helper, a tuple index of the wrong length; an annotated assignment to a subscript.
import cuda.tile as ct


def helper(t):
    return t


@ct.kernel
def mixed(pair, i):
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:14: error: a run-time index needs a tuple whose elements have one type, found `Tuple(array(float32, 1d, C), int32)`: index it with a constant [tile-type]
    # CHECK:STDERR:     x = pair[i]
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    x = pair[i]
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:14: error: tuple index 2 out of range for `Tuple(array(float32, 1d, C), int32)` [index-out-of-range]
    # CHECK:STDERR:     y = pair[2]
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    y = pair[2]
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:13: error: `len` takes a tuple in tile kernels, found `array(float32, 1d, C)` (use `x.shape[0]`) [tile-type]
    # CHECK:STDERR:     n = len(pair[0])
    # CHECK:STDERR:             ^~~~~~~
    # CHECK:STDERR:
    n = len(pair[0])
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:5: error: an annotated assignment to this target is not supported in tile kernels yet: assign to a name [tile-unsupported]
    # CHECK:STDERR:     pair[0]: int = 3
    # CHECK:STDERR:     ^~~~~~~
    # CHECK:STDERR:
    pair[0]: int = 3


@ct.kernel
def arrays(xs, out):
    if ct.bid(0) == 0:
        # A tuple parameter unpacks in straight-line code only.
        # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:16: error: unpacking a tuple that holds arrays is not supported in tile kernels yet: index it (`a = t[0]`), or unpack a tuple parameter in straight-line code [tile-unsupported]
        # CHECK:STDERR:         a, b = xs
        # CHECK:STDERR:                ^~
        # CHECK:STDERR:
        a, b = xs
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:5: error: a variable holding a tuple of arrays is not supported in tile kernels yet: index the tuple parameter where an array is used (`ct.load(xs[i], ...)`) [tile-unsupported]
    # CHECK:STDERR:     keep = xs
    # CHECK:STDERR:     ^~~~
    # CHECK:STDERR:
    keep = xs
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:12: error: cannot pass `UniTuple(array(float32, 1d, C) x 2)` to a helper function [tile-type]
    # CHECK:STDERR:     helper(xs)
    # CHECK:STDERR:            ^~
    # CHECK:STDERR:
    helper(xs)
    idx = (ct.bid(0), 1)
    # CHECK:STDERR: fail_tile_tuple.py:[[@LINE+4]]:25: error: the tile index `UniTuple(int32 x 2)` must hold 1 integer(s), one per dimension of the array [tile-shape]
    # CHECK:STDERR:     ct.store(out, index=idx, tile=ct.load(xs[0], index=(0,), shape=(16,)))
    # CHECK:STDERR:                         ^~~
    # CHECK:STDERR:
    ct.store(out, index=idx, tile=ct.load(xs[0], index=(0,), shape=(16,)))
