# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""`ct.assert_(cond, message=None)`: a bool tile (or a run-time bool) that must hold
everywhere; where it does not, thread 0 of the block prints `KERNEL:LINE: block (x, y, z):
MESSAGE` and the kernel traps (cuTile's test_assert). Errors: fail_tile_assert.py."""
import cuda.tile as ct


@ct.kernel
def k(x: "float32[::1]", cond: "bool_[::1]", TILE: ct.Constant[int] = 128):
    c = ct.load(cond, index=(ct.bid(0),), shape=(TILE,))
    ct.assert_(c, "assert failed")
    ct.assert_(c)
    ct.assert_(ct.bid(0) >= 0, "rows out of order")
    tx = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.assert_(tx >= 0.0, message="negative input")
# CHECK:STDOUT: kernel k k__f32a1C_b1a1C__KTILE_128 void(float32[::1], bool[::1], TILE=128)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   c: tile(bool, (128,))
# CHECK:STDOUT:   cond: array(bool, 1d, C)
# CHECK:STDOUT:   tx: tile(float32, (128,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
