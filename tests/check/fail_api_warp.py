# ARGS: --diag-kinds compile %s --phase=check
# match_*_sync, selp and nanosleep: argument counts and types.
from numba import cuda, int16, int32


@cuda.jit("void(float32[::1], int16[::1], int64[::1])")
def k(f, h, n):
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:37: error: `cuda.match_any_sync` compares 32- and 64-bit integers and floats, found `int16` [invalid-call]
    # CHECK:STDERR:     cuda.match_any_sync(0xFFFFFFFF, h[0])
    # CHECK:STDERR:                                     ^~~~
    # CHECK:STDERR:
    cuda.match_any_sync(0xFFFFFFFF, h[0])
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:5: error: `cuda.match_all_sync` takes 2 arguments (mask, value), found 1 [wrong-arg-count]
    # CHECK:STDERR:     cuda.match_all_sync(0xFFFFFFFF)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.match_all_sync(0xFFFFFFFF)
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:25: error: `cuda.match_any_sync` takes an integer mask [invalid-call]
    # CHECK:STDERR:     cuda.match_any_sync(1.5, f[0])
    # CHECK:STDERR:                         ^~~
    # CHECK:STDERR:
    cuda.match_any_sync(1.5, f[0])
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:5: error: `cuda.selp` selects between two values of one type (16-, 32- or 64-bit integers or floats), found `float32` and `int64` [invalid-call]
    # CHECK:STDERR:     cuda.selp(f[0] > 0, f[0], 1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.selp(f[0] > 0, f[0], 1)
    cuda.selp(True, h[0], h[0])
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:5: error: `cuda.selp` takes 3 arguments (predicate, a, b), found 2 [wrong-arg-count]
    # CHECK:STDERR:     cuda.selp(True, 1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.selp(True, 1)
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:20: error: `cuda.nanosleep` takes an integer [invalid-call]
    # CHECK:STDERR:     cuda.nanosleep(1.5)
    # CHECK:STDERR:                    ^~~
    # CHECK:STDERR:
    cuda.nanosleep(1.5)
    a = cuda.match_all_sync(0xFFFFFFFF, f[0])
    # CHECK:STDERR: fail_api_warp.py:[[@LINE+4]]:12: error: cannot store `Tuple(int32, bool)` into an element of `array(int64, 1d, C)` [invalid-assignment]
    # CHECK:STDERR:     n[0] = a
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    n[0] = a
