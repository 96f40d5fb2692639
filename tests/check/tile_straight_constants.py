# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""A name assigned only in straight-line code keeps each constant it is given (cuTile's
SSA and loose typing, its test_loose_typing): `t` stays a number, so `a - t` keeps the
tile's int8. A name assigned in a loop or branch is a run-time variable from the start
(`acc`), and `off += ct.bid(0)` turns the constant `off` into a run-time value."""
import cuda.tile as ct


@ct.kernel
def k(x: "float32[::1]", out: "int32[::1]", N: ct.Constant[int] = 5, TILE: ct.Constant[int] = 64):
    t = (N + 2) * 3
    t = -t
    t ^= N
    a = ct.arange(4, dtype=ct.int8)
    b = a - t
    ct.static_assert(b.dtype == ct.int8)
    ct.static_assert(t == -18)
    acc = 0
    for i in range(4):
        acc += i
    off = 0
    off += ct.bid(0)
    tx = ct.load(x, index=(off,), shape=(TILE,))
    ct.scatter(out, ct.arange(4, dtype=ct.int32), b + acc)
# CHECK:STDOUT: kernel k k__f32a1C_i32a1C__KN_5__KTILE_64 void(float32[::1], int32[::1], N=5, TILE=64)
# CHECK:STDOUT:   N: int64
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   a: tile(int8, (4,))
# CHECK:STDOUT:   acc: int32
# CHECK:STDOUT:   b: tile(int8, (4,))
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   off: int32
# CHECK:STDOUT:   out: array(int32, 1d, C)
# CHECK:STDOUT:   t: int64
# CHECK:STDOUT:   tx: tile(float32, (64,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
