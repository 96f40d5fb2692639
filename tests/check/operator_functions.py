# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Python's operator module in kernels (numba-cuda types its functions as the operators:
operator.add(int32, int32) is int64 as `a + b` is), and NumPy's bitwise ufuncs on numbers
(NumPy's loops: np.bitwise_and(int32, int32) is int32)."""
import operator

import numpy as np
from numba import cuda


@cuda.jit("void(int32[::1], float32[::1])")
def k(n, x):
    i64_mod = operator.mod(n[0], 2)
    i64_add = operator.add(n[0], n[1])
    i64_shift = operator.rshift(n[0], 3) ^ operator.lshift(n[1], 1)
    i64_bits = operator.and_(n[0], n[1]) | operator.or_(n[0], 1) | operator.xor(n[1], 2)
    f32_mul = operator.mul(x[0], x[1])
    f64_div = operator.truediv(n[0], n[1])
    negated = operator.neg(n[0])
    absolute = operator.abs(n[0])
    i32_and = np.bitwise_and(n[0], n[1])
    i32_shift = np.right_shift(n[0], n[1])
    n[0] = i64_mod + i64_add + i64_shift + i64_bits + negated + absolute + i32_and + i32_shift
    # CHECK:STDERR: operator_functions.py:[[@LINE+7]]:22: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 * float64` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     x[0] = f32_mul + x[0] * f64_div
    # CHECK:STDERR:                      ^~~~~~~~~~~~~~
    # CHECK:STDERR: operator_functions.py:[[@LINE+4]]:29: note: `f64_div` is `float64`; convert it with `float32(...)` to compute in float32
    # CHECK:STDERR:     x[0] = f32_mul + x[0] * f64_div
    # CHECK:STDERR:                             ^~~~~~~
    # CHECK:STDERR:
    x[0] = f32_mul + x[0] * f64_div
# CHECK:STDOUT: kernel k k__i32a1C_f32a1C void(int32[::1], float32[::1])
# CHECK:STDOUT:   absolute: int32
# CHECK:STDOUT:   f32_mul: float32
# CHECK:STDOUT:   f64_div: float64
# CHECK:STDOUT:   i32_and: int32
# CHECK:STDOUT:   i32_shift: int32
# CHECK:STDOUT:   i64_add: int64
# CHECK:STDOUT:   i64_bits: int64
# CHECK:STDOUT:   i64_mod: int64
# CHECK:STDOUT:   i64_shift: int64
# CHECK:STDOUT:   n: array(int32, 1d, C)
# CHECK:STDOUT:   negated: int32
# CHECK:STDOUT:   x: array(float32, 1d, C)
