# ARGS: --diag-kinds compile %s --phase=check
# cuTile's reduction options: sum/prod take rounding_mode (RN, RZ, RM, RP on float32 and
# float64) and flush_to_zero (float32), max/min flush_to_zero and propagate_nan,
# argmax/argmin propagate_nan; each a constant.
import cuda.tile as ct


@ct.kernel
def options(x: "float32[:, ::1]", h: "float16[:, ::1]", flag: "int32"):
    t = ct.load(x, (0, 0), (4, 8))
    s = ct.load(h, (0, 0), (4, 8))
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:27: error: `ct.sum` has no parameter `propagate_nan` [invalid-call]
    # CHECK:STDERR:     a = ct.sum(t, axis=1, propagate_nan=True)
    # CHECK:STDERR:                           ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    a = ct.sum(t, axis=1, propagate_nan=True)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:27: error: `ct.max` has no parameter `rounding_mode` [invalid-call]
    # CHECK:STDERR:     b = ct.max(t, axis=1, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR:                           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    b = ct.max(t, axis=1, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:41: error: `ct.sum` with `rounding_mode=RoundingMode.APPROX` on `float32` is not supported in tile kernels yet (reductions take RN, RZ, RM or RP) [tile-unsupported]
    # CHECK:STDERR:     c = ct.sum(t, axis=1, rounding_mode=ct.RoundingMode.APPROX)
    # CHECK:STDERR:                                         ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    c = ct.sum(t, axis=1, rounding_mode=ct.RoundingMode.APPROX)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:41: error: `ct.sum` with `rounding_mode=RoundingMode.RZ` on `float16` is not supported in tile kernels yet (float32 and float64 only) [tile-unsupported]
    # CHECK:STDERR:     d = ct.sum(s, axis=1, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR:                                         ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    d = ct.sum(s, axis=1, rounding_mode=ct.RoundingMode.RZ)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:41: error: `ct.max` flushes to zero on float32 only, found `float16` [tile-type]
    # CHECK:STDERR:     e = ct.max(s, axis=1, flush_to_zero=True)
    # CHECK:STDERR:                                         ^~~~
    # CHECK:STDERR:
    e = ct.max(s, axis=1, flush_to_zero=True)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:44: error: `propagate_nan` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     f = ct.argmax(t, axis=1, propagate_nan=flag)
    # CHECK:STDERR:                                            ^~~~
    # CHECK:STDERR:
    f = ct.argmax(t, axis=1, propagate_nan=flag)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:40: error: `ct.maximum` flushes to zero on float32 only, found `float16` [tile-type]
    # CHECK:STDERR:     g = ct.maximum(s, s, flush_to_zero=True)
    # CHECK:STDERR:                                        ^~~~
    # CHECK:STDERR:
    g = ct.maximum(s, s, flush_to_zero=True)
    # CHECK:STDERR: fail_tile_reduce_options.py:[[@LINE+4]]:41: error: `propagate_nan` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     k = ct.min(t, axis=1, propagate_nan=ct.bid(0) == 0)
    # CHECK:STDERR:                                         ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    k = ct.min(t, axis=1, propagate_nan=ct.bid(0) == 0)
