# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# NumPy's ufuncs on scalars inside kernels, typed as numba-cuda types them: the float32
# loop for float32, float64 for integers (np.arcsin is math.asin, np.deg2rad radians).
import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], float64[::1], int64)")
def ufuncs(x, y, n):
    i = cuda.grid(1)
    if i < x.size:
        a = np.sin(x[i]) + np.arcsin(x[i]) * np.exp(x[i])
        b = np.sqrt(n) + np.floor(y[i])
        c = np.arctan2(x[i], x[i])
        d = np.deg2rad(y[i]) + np.log1p(y[i])
        nan = np.isnan(x[i])
        x[i] = a + c
        y[i] = b + d + nan
# CHECK:STDOUT: kernel ufuncs ufuncs__f32a1C_f64a1C_i64 void(float32[::1], float64[::1], int64)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float64
# CHECK:STDOUT:   c: float32
# CHECK:STDOUT:   d: float64
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   nan: bool
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(float64, 1d, C)
