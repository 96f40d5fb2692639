# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Partly constant tuples: a run-time tuple's constant elements stay constants
# (`tup = (ct.bid(0), 4)`: `tup[1]` is 4, a tile dimension), nested too, and through a
# run-time if/else when both branches give the same constant, as a name both branches
# bind to one constant (`w`, loosely typed: int8 + w is int8); `ct.ensure_constant(x)` is
# x when x is a compile-time constant.
import cuda.tile as ct


@ct.kernel
def known(x: "int32[::1]", n: ct.Constant[int] = 8):
    tup = (ct.bid(0), (n // 2, ct.bid(0)))
    width = ct.ensure_constant(tup[1][0] * 2)
    if ct.bid(1) == 0:
        pair = (ct.bid(1), 4)
        w = n + 2
    else:
        pair = (ct.bid(2), 4)
        w = 10
    t = ct.arange(width, dtype=x.dtype) + ct.arange(pair[1] * 2, dtype=x.dtype)
    small = ct.arange(8, dtype=ct.int8) + w
    ct.static_assert(small.dtype == ct.int8 and w == 10)
    ct.store(x, (tup[0],), t + pair[0] + small.astype(x.dtype))
# CHECK:STDOUT: kernel known known__i32a1C__Kn_8 void(int32[::1], n=8)
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   pair: UniTuple(int32 x 2)
# CHECK:STDOUT:   small: tile(int8, (8,))
# CHECK:STDOUT:   t: tile(int32, (8,))
# CHECK:STDOUT:   tup: Tuple(int32, UniTuple(int32 x 2))
# CHECK:STDOUT:   w: int32
# CHECK:STDOUT:   width: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
