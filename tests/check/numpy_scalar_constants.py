# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Module constants made with NumPy or numba scalar types keep their type in kernels, as
numba freezes them (issue 19: `SCALE = np.float32(0.5)` is float32, not float64); the
value is converted as NumPy converts it (np.uint8(300) == 44)."""
import numpy as np
from numba import cuda, float32, int32

SCALE = np.float32(0.1)
COUNT = int32(7)
WRAPPED = np.uint8(300)
FLAG = np.bool_(1)
THIRD = float32(1) / 3  # arithmetic on it is Python's: float64


@cuda.jit("void(float32[::1], int64[::1])")
def k(x, o):
    a = SCALE
    b = COUNT
    c = WRAPPED
    d = FLAG
    e = THIRD
    # CHECK:STDERR: numpy_scalar_constants.py:[[@LINE+7]]:12: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 + float64` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     x[0] = a * x[0] + e
    # CHECK:STDERR:            ^~~~~~~~~~~~
    # CHECK:STDERR: numpy_scalar_constants.py:[[@LINE+4]]:23: note: `e` is `float64`; convert it with `float32(...)` to compute in float32
    # CHECK:STDERR:     x[0] = a * x[0] + e
    # CHECK:STDERR:                       ^
    # CHECK:STDERR:
    x[0] = a * x[0] + e
    o[0] = b + c if d else 0
# CHECK:STDOUT: kernel k k__f32a1C_i64a1C void(float32[::1], int64[::1])
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: int32
# CHECK:STDOUT:   c: uint8
# CHECK:STDOUT:   d: bool
# CHECK:STDOUT:   e: float64
# CHECK:STDOUT:   o: array(int64, 1d, C)
# CHECK:STDOUT:   x: array(float32, 1d, C)
