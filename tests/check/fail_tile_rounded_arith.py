# ARGS: --diag-kinds compile %s --phase=check
# ct.add/ct.sub/ct.mul take RN, RZ, RM or RP; FULL and APPROX are division's; a rounding
# mode needs float32 or float64 operands.
import cuda.tile as ct


@ct.kernel
def bad_rounding(a: "float32[::1]", i: "int32[::1]", TILE: ct.Constant[int] = 128):
    x = ct.load(a, index=(0,), shape=(TILE,))
    k = ct.load(i, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_rounded_arith.py:[[@LINE+4]]:36: error: `ct.mul` with `rounding_mode=RoundingMode.APPROX` on `float32` is not supported in tile kernels yet (FULL and APPROX are division's; this takes RN, RZ, RM or RP) [tile-unsupported]
    # CHECK:STDERR:     y = ct.mul(x, x, rounding_mode=ct.RoundingMode.APPROX)
    # CHECK:STDERR:                                    ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    y = ct.mul(x, x, rounding_mode=ct.RoundingMode.APPROX)
    # CHECK:STDERR: fail_tile_rounded_arith.py:[[@LINE+4]]:36: error: `ct.add` with `rounding_mode=RoundingMode.RZ` on `int32` is not supported in tile kernels yet (float32 and float64 only) [tile-unsupported]
    # CHECK:STDERR:     z = ct.add(k, k, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR:                                    ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    z = ct.add(k, k, rounding_mode=ct.RoundingMode.RZ)
    ct.store(a, index=(0,), tile=y + z)
