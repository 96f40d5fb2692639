# ARGS: --diag-kinds compile %s --phase=check
# Atomics: numba's dtype table (add/sub/max/min/nanmax/nanmin: 32/64-bit ints and
# floats; and_/or_/xor/exch/cas/compare_and_swap: 32/64-bit ints; inc/dec:
# unsigned 32/64-bit), argument counts, and compare_and_swap's 1-d array.
from numba import cuda


@cuda.jit("void(float32[::1], int16[::1], int32[:, ::1], uint32[::1])")
def k(f, h, m, u):
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:22: error: `cuda.atomic.exch` does not support arrays of `float32` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.exch(f, 0, 1.0)
    # CHECK:STDERR:                      ^
    # CHECK:STDERR:
    cuda.atomic.exch(f, 0, 1.0)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:22: error: `cuda.atomic.and_` does not support arrays of `float32` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.and_(f, 0, 1)
    # CHECK:STDERR:                      ^
    # CHECK:STDERR:
    cuda.atomic.and_(f, 0, 1)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:21: error: `cuda.atomic.inc` does not support arrays of `int32` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.inc(m, (0, 0), 1)
    # CHECK:STDERR:                     ^
    # CHECK:STDERR:
    cuda.atomic.inc(m, (0, 0), 1)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:21: error: `cuda.atomic.add` does not support arrays of `int16` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.add(h, 0, 1)
    # CHECK:STDERR:                     ^
    # CHECK:STDERR:
    cuda.atomic.add(h, 0, 1)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:21: error: `cuda.atomic.cas` does not support arrays of `float32` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.cas(f, 0, 1.0, 2.0)
    # CHECK:STDERR:                     ^
    # CHECK:STDERR:
    cuda.atomic.cas(f, 0, 1.0, 2.0)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:34: error: `cuda.atomic.compare_and_swap` works on a 1-d array, found `array(int32, 2d, C)` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.compare_and_swap(m, 1, 2)
    # CHECK:STDERR:                                  ^
    # CHECK:STDERR:
    cuda.atomic.compare_and_swap(m, 1, 2)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:5: error: `cuda.atomic.compare_and_swap` takes 3 arguments (array, expected, value), found 2 [wrong-arg-count]
    # CHECK:STDERR:     cuda.atomic.compare_and_swap(u, 1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.atomic.compare_and_swap(u, 1)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:27: error: `cuda.atomic.nanmax` on a 2-d array takes a tuple of 2 indices [invalid-index]
    # CHECK:STDERR:     cuda.atomic.nanmax(m, 0, 1)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    cuda.atomic.nanmax(m, 0, 1)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:30: error: `cuda.atomic.nanmin` needs a number, found `m` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.nanmin(f, 0, m)
    # CHECK:STDERR:                              ^
    # CHECK:STDERR:
    cuda.atomic.nanmin(f, 0, m)
    # CHECK:STDERR: fail_api_atomics.py:[[@LINE+4]]:21: error: the first argument of `cuda.atomic.max` must be an array, found `int64` [invalid-call]
    # CHECK:STDERR:     cuda.atomic.max(3, 0, 1)
    # CHECK:STDERR:                     ^
    # CHECK:STDERR:
    cuda.atomic.max(3, 0, 1)
