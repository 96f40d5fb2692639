# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""NumPy's arithmetic ufuncs on numbers in kernels, typed as numba types them (NumPy's
loops): binary ones in the operands' promoted type (np.add(int32, int32) is int32 where
`a + b` is int64; np.power(float32, int64) is float64), np.true_divide/np.divide of
integers in float64, unary ones in the operand's type (booleans in int64)."""
import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], int32[::1], boolean[::1])")
def k(x, n, flags):
    f32_sum = np.add(x[0], x[1])
    f64_mixed = np.maximum(x[0], n[0])
    i32_sum = np.add(n[0], n[1])
    i64_sum = np.add(n[0], 1)
    f64_div = np.divide(n[0], n[1])
    i32_max = np.minimum(n[0], n[1])
    i64_sign = np.sign(flags[0])
    f64_pow = np.power(x[0], 3)
    f32_pow = np.power(x[0], x[1])
    i32_abs = np.absolute(n[0])
    # CHECK:STDERR: numpy_arithmetic_ufuncs.py:[[@LINE+7]]:12: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 + float64` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     x[0] = f32_sum + f64_mixed + i32_sum + i64_sum + f64_pow + f64_div + i32_max + i64_sign + f32_pow + i32_abs
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR: numpy_arithmetic_ufuncs.py:[[@LINE+4]]:22: note: `f64_mixed` is `float64`; convert it with `float32(...)` to compute in float32
    # CHECK:STDERR:     x[0] = f32_sum + f64_mixed + i32_sum + i64_sum + f64_pow + f64_div + i32_max + i64_sign + f32_pow + i32_abs
    # CHECK:STDERR:                      ^~~~~~~~~
    # CHECK:STDERR:
    x[0] = f32_sum + f64_mixed + i32_sum + i64_sum + f64_pow + f64_div + i32_max + i64_sign + f32_pow + i32_abs
# CHECK:STDOUT: kernel k k__f32a1C_i32a1C_b1a1C void(float32[::1], int32[::1], bool[::1])
# CHECK:STDOUT:   f32_pow: float32
# CHECK:STDOUT:   f32_sum: float32
# CHECK:STDOUT:   f64_div: float64
# CHECK:STDOUT:   f64_mixed: float64
# CHECK:STDOUT:   f64_pow: float64
# CHECK:STDOUT:   flags: array(bool, 1d, C)
# CHECK:STDOUT:   i32_abs: int32
# CHECK:STDOUT:   i32_max: int32
# CHECK:STDOUT:   i32_sum: int32
# CHECK:STDOUT:   i64_sign: int64
# CHECK:STDOUT:   i64_sum: int64
# CHECK:STDOUT:   n: array(int32, 1d, C)
# CHECK:STDOUT:   x: array(float32, 1d, C)
