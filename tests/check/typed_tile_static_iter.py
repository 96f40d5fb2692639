# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(int32[::1],int32[::1])
"""Compile-time loops (`ct.static_iter`): each iteration is typed on its own, its loop
variables constants or elements of a run-time tuple; a tuple may grow in one; tuple
comprehensions give constant tuples or tuples of run-time values, and their names stay
their own."""
import cuda.tile as ct
from cuda.tile import static_iter


@ct.kernel
def k(x, y):
    a = ct.load(x, (0,), (16,))
    b = ct.load(x, (1,), (16,))
    tiles = (a, b)
    i = 99
    s = ct.zeros((16,), dtype=x.dtype)
    for j, t in ct.static_iter(enumerate(tiles, 1)):
        s += j * t
    grown = ()
    for t in static_iter(tiles):
        grown += (t, t * 2)
    pairs = tuple(u - v for u, v in ct.static_iter(zip(tiles, grown)))
    table = tuple(tuple(i * 2 for i in ct.static_iter(range(n))) for n in ct.static_iter(range(3)))
    for w in ct.static_iter([2, 3.0, True]):
        s += ct.astype(pairs[0] * w, ct.int32)
    ct.store(y, (0,), s + i + table[2][1])
# CHECK:STDOUT: kernel k k__i32a1C_i32a1C void(int32[::1], int32[::1])
# CHECK:STDOUT:   a: tile(int32, (16,))
# CHECK:STDOUT:   b: tile(int32, (16,))
# CHECK:STDOUT:   grown: UniTuple(tile(int32, (16,)) x 4)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   j: int64
# CHECK:STDOUT:   pairs: UniTuple(tile(int32, (16,)) x 2)
# CHECK:STDOUT:   s: tile(int32, (16,))
# CHECK:STDOUT:   t: tile(int32, (16,))
# CHECK:STDOUT:   table: Tuple(Tuple(), UniTuple(int64 x 1), UniTuple(int64 x 2))
# CHECK:STDOUT:   tiles: UniTuple(tile(int32, (16,)) x 2)
# CHECK:STDOUT:   w: bool
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   y: array(int32, 1d, C)
