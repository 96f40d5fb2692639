# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(int32[::1])
"""Unpacking into list and nested targets (`[(a, [b, c]), d] = t`), as into tuples."""
import cuda.tile as ct


@ct.kernel
def k(x):
    t = (1, (2, 3)), 4
    [(a, [b, c]), d] = t
    u = ct.load(x, index=(0,), shape=(16,))
    [p, q] = u, u * 2
    ct.store(x, index=(0,), tile=p * a + q * (b + c + d))
# CHECK:STDOUT: kernel k k__i32a1C void(int32[::1])
# CHECK:STDOUT:   a: int64
# CHECK:STDOUT:   b: int64
# CHECK:STDOUT:   c: int64
# CHECK:STDOUT:   d: int64
# CHECK:STDOUT:   p: tile(int32, (16,))
# CHECK:STDOUT:   q: tile(int32, (16,))
# CHECK:STDOUT:   t: Tuple(Tuple(int64, UniTuple(int64 x 2)), int64)
# CHECK:STDOUT:   u: tile(int32, (16,))
# CHECK:STDOUT:   x: array(int32, 1d, C)
