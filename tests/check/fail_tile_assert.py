# ARGS: --diag-kinds compile %s --phase=check
"""`ct.assert_` checks bools at run time; a condition known at compile time belongs in
`ct.static_assert`, and the message is a string constant."""
import cuda.tile as ct


@ct.kernel
def bad(x: "float32[::1]", TILE: ct.Constant[int] = 16):
    tx = ct.load(x, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_assert.py:[[@LINE+4]]:16: error: `ct.assert_` takes a bool tile or a bool, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     ct.assert_(tx)
    # CHECK:STDERR:                ^~
    # CHECK:STDERR:
    ct.assert_(tx)
    # CHECK:STDERR: fail_tile_assert.py:[[@LINE+4]]:16: error: the condition of `ct.assert_` is known at compile time: use `ct.static_assert` [tile-type]
    # CHECK:STDERR:     ct.assert_(TILE == 16)
    # CHECK:STDERR:                ^~~~~~~~~~
    # CHECK:STDERR:
    ct.assert_(TILE == 16)
    # CHECK:STDERR: fail_tile_assert.py:[[@LINE+4]]:24: error: the message of `ct.assert_` is a string constant, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     ct.assert_(tx > 0, tx)
    # CHECK:STDERR:                        ^~
    # CHECK:STDERR:
    ct.assert_(tx > 0, tx)
