# ARGS: --diag-kinds compile %s --phase=check
"""What tile kernels' prints refuse: printf conversions without a value or of the wrong
kind, format specs printf cannot follow, arrays, keyword arguments print does not take."""
import cuda.tile as ct


@ct.kernel
def bad(x: "float32[::1]", TILE: ct.Constant[int] = 8):
    tx = ct.load(x, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:15: error: `ct.printf`'s format has more conversions than the 1 value(s) given [tile-type]
    # CHECK:STDERR:     ct.printf("%d %d\n", ct.bid(0))
    # CHECK:STDERR:               ^~~~~~~~~
    # CHECK:STDERR:
    ct.printf("%d %d\n", ct.bid(0))
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:23: error: `%d` formats integers, found `tile(float32, (8,))`: use %f, %e or %g (or convert with `astype`) [tile-type]
    # CHECK:STDERR:     ct.printf("%d\n", tx)
    # CHECK:STDERR:                       ^~
    # CHECK:STDERR:
    ct.printf("%d\n", tx)
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:15: error: `ct.printf` formats numbers and tiles (d, i, u, o, x, X, e, f, g, a), found `%s` [tile-type]
    # CHECK:STDERR:     ct.printf("%s\n", tx)
    # CHECK:STDERR:               ^~~~~~
    # CHECK:STDERR:
    ct.printf("%s\n", tx)
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:34: error: `ct.printf`'s format has 1 conversion(s), but 2 value(s) are given [tile-type]
    # CHECK:STDERR:     ct.printf("%d\n", ct.bid(0), tx)
    # CHECK:STDERR:                                  ^~
    # CHECK:STDERR:
    ct.printf("%d\n", ct.bid(0), tx)
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:14: error: format spec `^10` centres the text: kernels' printf cannot [tile-type]
    # CHECK:STDERR:     print(f"{tx:^10}")
    # CHECK:STDERR:              ^~
    # CHECK:STDERR:
    print(f"{tx:^10}")
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:14: error: format spec `,` groups digits: kernels' printf cannot [tile-type]
    # CHECK:STDERR:     print(f"{tx:,}")
    # CHECK:STDERR:              ^~
    # CHECK:STDERR:
    print(f"{tx:,}")
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:11: error: printing `array(float32, 1d, C)` is not supported in tile kernels yet: kernels print strings, numbers, tiles and tuples of them [tile-unsupported]
    # CHECK:STDERR:     print(x)
    # CHECK:STDERR:           ^
    # CHECK:STDERR:
    print(x)
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:20: error: `print` in a kernel takes `sep=`, `end=` and `flush=`, found `file=` [tile-type]
    # CHECK:STDERR:     print(tx, file=None)
    # CHECK:STDERR:                    ^~~~
    # CHECK:STDERR:
    print(tx, file=None)
    # CHECK:STDERR: fail_tile_print.py:[[@LINE+4]]:23: error: `ct.printf` formats numbers and tiles of numbers, found `tile(float8_e4m3fn, (8,))` [tile-type]
    # CHECK:STDERR:     ct.printf("%f\n", ct.astype(tx, ct.float8_e4m3fn))
    # CHECK:STDERR:                       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.printf("%f\n", ct.astype(tx, ct.float8_e4m3fn))
