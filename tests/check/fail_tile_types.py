# ARGS: --diag-kinds compile %s --phase=check
# Tile kernel typing: variables carried around loops keep their type (a name read after a
# loop or branch that retyped it on one path is an error there), `+=` keeps it,
# arrays only enter through ct.load/ct.store, dtypes are dtype objects.
import cuda.tile as ct


@ct.kernel
def types(x: "float32[::1]", y: "int32[::1]", T: ct.Constant[int] = 64):
    bid = ct.bid(0)
    acc = ct.zeros((T,), dtype=ct.float32)
    for j in range(4):
        acc = ct.load(y, index=(j,), shape=(T,))
    i = ct.load(y, index=(bid,), shape=(T,))
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:5: error: `i +=` would change its type from `tile(int32, (64,))` to `tile(float32, (64,))`: write `x = x + ...` or convert with `astype` [tile-type]
    # CHECK:STDERR:     i += 0.5
    # CHECK:STDERR:     ^~~~~~~~
    # CHECK:STDERR:
    i += 0.5
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:13: error: arrays cannot take part in tile arithmetic: `ct.load` a tile first [tile-type]
    # CHECK:STDERR:     z = x + 1
    # CHECK:STDERR:             ^
    # CHECK:STDERR:
    z = x + 1
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:32: error: expected a dtype such as `ct.float32`, found `3` [tile-type]
    # CHECK:STDERR:     w = ct.full((T,), 0, dtype=3)
    # CHECK:STDERR:                                ^
    # CHECK:STDERR:
    w = ct.full((T,), 0, dtype=3)
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:17: error: expected an array, found `3` [tile-type]
    # CHECK:STDERR:     u = ct.load(3, index=(bid,), shape=(T,))
    # CHECK:STDERR:                 ^
    # CHECK:STDERR:
    u = ct.load(3, index=(bid,), shape=(T,))
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:76: error: `order=` must be a permutation of the array's 1 axes (a tuple of constants), "C" or "F", found `(1,)` [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(bid,), tile=ct.zeros((T,), dtype=ct.float32), order=(1,))
    # CHECK:STDERR:                                                                            ^~~~
    # CHECK:STDERR:
    ct.store(x, index=(bid,), tile=ct.zeros((T,), dtype=ct.float32), order=(1,))
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:36: error: `acc` holds `tile(float32, (64,))` or `tile(int32, (64,))` here, depending on the path taken (`tile(int32, (64,))` from line [[@LINE-27]]): such a variable keeps one type in a tile kernel [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(bid,), tile=acc)
    # CHECK:STDERR:                                    ^~~
    # CHECK:STDERR:
    ct.store(x, index=(bid,), tile=acc)
    # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:76: error: `order=` must be a permutation of the array's 1 axes (a tuple of constants), "C" or "F", found `(1,)` [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(bid,), tile=ct.zeros((T,), dtype=ct.float32), order=(1,))
    # CHECK:STDERR:                                                                            ^~~~
    # CHECK:STDERR:
    ct.store(x, index=(bid,), tile=ct.zeros((T,), dtype=ct.float32), order=(1,))


@ct.kernel
def carried(x: "float32[::1]", y: "int32[::1]", T: ct.Constant[int] = 64):
    acc = ct.zeros((T,), dtype=ct.float32)
    for j in range(4):
        ct.store(x, index=(j,), tile=acc)
        # CHECK:STDERR: fail_tile_types.py:[[@LINE+4]]:9: error: `acc` is assigned `tile(int32, (64,))` here but holds `tile(float32, (64,))` before the loop or branch: such a variable keeps one type in a tile kernel [tile-type]
        # CHECK:STDERR:         acc = ct.load(y, index=(j,), shape=(T,))
        # CHECK:STDERR:         ^~~
        # CHECK:STDERR:
        acc = ct.load(y, index=(j,), shape=(T,))
