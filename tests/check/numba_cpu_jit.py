# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Functions decorated with numba's CPU decorators (`@numba.jit`, `@njit`, with or
without options) that a kernel calls are compiled for the device, as numba-cuda does
(issue 21 item 2): typed at each call, `fastmath` kept, the CPU's own options
(`nopython`, `cache`, `parallel`, ...) and CPU signatures not applying there."""
import numba
from numba import cuda, jit, njit


# CHECK:STDERR: numba_cpu_jit.py:[[@LINE+4]]:55: warning: `bogus_option` of `numba.jit` ignored on the device [unsupported-option]
# CHECK:STDERR: @njit(parallel=True, nogil=True, error_model="numpy", bogus_option=1)
# CHECK:STDERR:                                                       ^~~~~~~~~~~~~~
# CHECK:STDERR:
@njit(parallel=True, nogil=True, error_model="numpy", bogus_option=1)
def unused_on_the_device(v):
    # Never called from a kernel: never compiled.
    return v


@numba.jit(nopython=True)
def bin_of(x, n):
    # CHECK:STDERR: numba_cpu_jit.py:[[@LINE+7]]:20: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 * int64` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     return min(int(x * n), n - 1)
    # CHECK:STDERR:                    ^~~~~
    # CHECK:STDERR: numba_cpu_jit.py:[[@LINE+4]]:24: note: `n` is `int64`, which turns float32 arithmetic into float64; convert it with `float32(...)`
    # CHECK:STDERR:     return min(int(x * n), n - 1)
    # CHECK:STDERR:                        ^
    # CHECK:STDERR:
    return min(int(x * n), n - 1)


@njit
def twice(v):
    return v + v


@jit("float64(float64)", nopython=True, cache=True, fastmath=True)
def fast_square(v):
    return v * v


@cuda.jit("void(float32[::1], int32[::1])")
def histogram(x, counts):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(counts, bin_of(x[i], counts.size), 1)
        x[i] = fast_square(twice(x[i]))
# CHECK:STDOUT: kernel histogram histogram__f32a1C_i32a1C void(float32[::1], int32[::1])
# CHECK:STDOUT:   counts: array(int32, 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device bin_of pykc_device__bin_of__f32_i64 int64(float32, int64)
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT: device twice pykc_device__twice__f32 float32(float32)
# CHECK:STDOUT:   v: float32
# CHECK:STDOUT: device fast_square pykc_device__fast_square__f32 float32(float32)
# CHECK:STDOUT:   v: float32
