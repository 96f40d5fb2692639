# ARGS: --diag-kinds compile %s --phase=check
# `while` in tile kernels takes a scalar condition (the whole CTA loops together); a tile
# condition, `while ... else` and `break`/`continue` outside a loop are refused.
import cuda.tile as ct


@ct.kernel
def tile_condition(x: "float32[::1]", TILE: ct.Constant[int] = 16):
    t = ct.load(x, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_while.py:[[@LINE+4]]:11: error: cannot use `tile(bool, (16,))` as a condition [invalid-condition]
    # CHECK:STDERR:     while t > 0:
    # CHECK:STDERR:           ^~~~~
    # CHECK:STDERR:
    while t > 0:
        t = t - 1
    ct.store(x, index=(0,), tile=t)


@ct.kernel
def with_else(x: "int32[::1]"):
    i = 0
    # CHECK:STDERR: fail_tile_while.py:[[@LINE+4]]:5: error: `while ... else` is not supported in tile kernels [unsupported-construct]
    # CHECK:STDERR:     while i < 3:
    # CHECK:STDERR:     ^~~~~~~~~~~~
    # CHECK:STDERR:
    while i < 3:
        i += 1
    else:
        i = 7


@ct.kernel
def stray(x: "int32[::1]"):
    if ct.bid(0) == 0:
        # CHECK:STDERR: fail_tile_while.py:[[@LINE+4]]:9: error: `break` outside a loop [unsupported-construct]
        # CHECK:STDERR:         break
        # CHECK:STDERR:         ^~~~~
        # CHECK:STDERR:
        break
