# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# numba's Optional returns (numba-examples' histogram `compute_bin`): a device function that
# returns a value on some paths and None on others is typed with the value's type; where a
# caller uses the result, None ends the thread (numba's failed cast); a call whose result
# is discarded ends nothing. `raise` in a device function ends the thread.
import numba
import numpy as np
from numba import cuda


@numba.jit(nopython=True)
def compute_bin(x, n, xmin, xmax):
    if x == xmax:
        return n - 1
    bin = np.int32(n * (np.float64(x) - np.float64(xmin)) / (np.float64(xmax) - np.float64(xmin)))
    if bin < 0 or bin >= n:
        return None
    else:
        return bin


@cuda.jit(device=True)
def positive(v):
    if v < 0:
        raise ValueError("negative")
    return v


@cuda.jit("void(float32[::1], float32, float32, int32[::1])")
def histogram(x, xmin, xmax, histogram_out):
    nbins = histogram_out.shape[0]
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        compute_bin(x[i], nbins, xmin, xmax)
        bin_number = compute_bin(positive(x[i]), nbins, xmin, xmax)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)
# CHECK:STDOUT: kernel histogram histogram__f32a1C_f32_f32_i32a1C void(float32[::1], float32, float32, int32[::1])
# CHECK:STDOUT:   bin_number: int64
# CHECK:STDOUT:   histogram_out: array(int32, 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   nbins: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   xmax: float32
# CHECK:STDOUT:   xmin: float32
# CHECK:STDOUT: device compute_bin pykc_device__compute_bin__f32_i64_f32_f32 OptionalType(int64)(float32, int64, float32, float32)
# CHECK:STDOUT:   bin: int32
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT:   xmax: float32
# CHECK:STDOUT:   xmin: float32
# CHECK:STDOUT: device positive pykc_device__positive__f32 float32(float32)
# CHECK:STDOUT:   v: float32
