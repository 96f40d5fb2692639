# ARGS: --diag-kinds compile %s --phase=check
# The operator functions take what their operators take (bitwise and shifts: integers
# and bools; unary `-`: numbers); `item()` needs a one-element tile; sqrt's rounding
# modes other than RN need float32, tanh's is FULL or APPROX.
import cuda.tile as ct


@ct.kernel
def bad_operator_fns(a: "float32[::1]", h: "float16[::1]", TILE: ct.Constant[int] = 128):
    x = ct.load(a, index=(0,), shape=(TILE,))
    xh = ct.load(h, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:9: error: unsupported operand types for `&`: `tile(float32, (128,))` and `tile(float32, (128,))` [mismatched-operand-types]
    # CHECK:STDERR:     b = ct.bitwise_and(x, x)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b = ct.bitwise_and(x, x)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:9: error: unsupported operand types for `<<`: `tile(float32, (128,))` and `1` [mismatched-operand-types]
    # CHECK:STDERR:     s = ct.bitwise_lshift(x, 1)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    s = ct.bitwise_lshift(x, 1)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:9: error: unsupported operand type for `~`: `tile(float32, (128,))` [mismatched-operand-types]
    # CHECK:STDERR:     n = ct.bitwise_not(x)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    n = ct.bitwise_not(x)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:9: error: `item()` needs a tile of one element, found `tile(float32, (128,))` [tile-shape]
    # CHECK:STDERR:     v = x.item()
    # CHECK:STDERR:         ^~~~~~~~
    # CHECK:STDERR:
    v = x.item()
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:35: error: `ct.sqrt` with `rounding_mode=RoundingMode.RZ` on `float16` is not supported in tile kernels yet (RN; RZ, RM, RP or APPROX on float32) [tile-unsupported]
    # CHECK:STDERR:     r = ct.sqrt(xh, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR:                                   ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    r = ct.sqrt(xh, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:34: error: `ct.tanh` with `rounding_mode=RoundingMode.RZ` on `float32` is not supported in tile kernels yet (FULL, or APPROX on float32) [tile-unsupported]
    # CHECK:STDERR:     t = ct.tanh(x, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR:                                  ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    t = ct.tanh(x, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:9: error: unsupported operand type for `-`: `tile(bool, (128,))` [mismatched-operand-types]
    # CHECK:STDERR:     m = ct.negative(x > 0)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    m = ct.negative(x > 0)


@ct.kernel
def bad_forms(a: "float32[::1]", TILE: ct.Constant[int] = 16):
    x = ct.load(a, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:49: error: `ct.arange`'s `start` is a number, found `tile(float32, (16,))` [tile-type]
    # CHECK:STDERR:     r = ct.arange(TILE, dtype=ct.float32, start=x)
    # CHECK:STDERR:                                                 ^
    # CHECK:STDERR:
    r = ct.arange(TILE, dtype=ct.float32, start=x)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:15: error: could not convert string to float: 'one' [invalid-call]
    # CHECK:STDERR:     f = float("one")
    # CHECK:STDERR:               ^~~~~
    # CHECK:STDERR:
    f = float("one")


@ct.kernel
def bad_scans(a: "float32[:, ::1]", TILE: ct.Constant[int] = 16):
    x = ct.load(a, index=(0, 0), shape=(TILE, TILE))
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:27: error: axis 2 is out of range for `tile(float32, (16, 16))` [tile-shape]
    # CHECK:STDERR:     r = ct.cumsum(x, axis=2)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    r = ct.cumsum(x, axis=2)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:20: error: `ct.cumprod` scans a tile, found `float32` [tile-type]
    # CHECK:STDERR:     s = ct.cumprod(ct.sum(x), 0)
    # CHECK:STDERR:                    ^~~~~~~~~
    # CHECK:STDERR:
    s = ct.cumprod(ct.sum(x), 0)
    # CHECK:STDERR: fail_tile_operator_fns.py:[[@LINE+4]]:39: error: `ct.cumsum` with `rounding_mode=RoundingMode.RZ` is not supported in tile kernels yet (RN only) [tile-unsupported]
    # CHECK:STDERR:     u = ct.cumsum(x, 0, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR:                                       ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    u = ct.cumsum(x, 0, rounding_mode=ct.RoundingMode.RZ)
