# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""A number's `.view(dtype)` reinterprets its bits as another number type of the same size,
as numba-cuda's Integer.view/Float.view (issue 21: accelerated-computing-hub's FP-emulation
helpers take floats apart this way)."""
import numpy as np
from numba import cuda


@cuda.jit(device=True, forceinline=True)
def copy_with_sign(x: np.float64, sign: np.int32) -> np.float64:
    SIGN_MASK = 0x8000000000000000
    bits = (x.view(np.int64) & ~SIGN_MASK) | (np.int64(sign) << 63)
    return bits.view(np.float64)


@cuda.jit("void(float64[::1], int32[::1], float32[::1], uint32[::1])")
def signs(x, s, f, u):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = copy_with_sign(x[i], s[i])
        u[i] = f[i].view(np.uint32)
# CHECK:STDOUT: kernel signs signs__f64a1C_i32a1C_f32a1C_u32a1C void(float64[::1], int32[::1], float32[::1], uint32[::1])
# CHECK:STDOUT:   f: array(float32, 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   s: array(int32, 1d, C)
# CHECK:STDOUT:   u: array(uint32, 1d, C)
# CHECK:STDOUT:   x: array(float64, 1d, C)
# CHECK:STDOUT: device copy_with_sign pykc_device__copy_with_sign__f64_i32 float64(float64, int32)
# CHECK:STDOUT:   SIGN_MASK: uint64
# CHECK:STDOUT:   bits: int64
# CHECK:STDOUT:   sign: int32
# CHECK:STDOUT:   x: float64
