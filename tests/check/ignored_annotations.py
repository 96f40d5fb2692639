# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig=k(float32[::1],int32)
"""Annotations that are not numba types are ignored, as numba ignores them (issue 21):
Python's classes (`a: float`), other libraries' types (`x: torch.Tensor`), partly annotated
functions. The device functions are typed from their calls (float32 here, not float64)."""
import math
from typing import Any

from numba import cuda


@cuda.jit(device=True)
def log_sum_exp(a: float, b: float):
    return max(a, b) + math.log1p(math.exp(-abs(a - b)))


@cuda.jit(device=True)
def scaled(tid: int, x, count: int):
    # CHECK:STDERR: ignored_annotations.py:[[@LINE+4]]:12: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 * int32` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     return x * count + tid
    # CHECK:STDERR:            ^~~~~~~~~
    # CHECK:STDERR:
    return x * count + tid


@cuda.jit
def k(x: Any, n):
    i = cuda.grid(1)
    if i < n:
        x[i] = scaled(i, log_sum_exp(x[i], x[0]), n)
# CHECK:STDOUT: kernel k k__f32a1C_i32 void(float32[::1], int32)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device log_sum_exp pykc_device__log_sum_exp__f32_f32 float32(float32, float32)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float32
# CHECK:STDOUT: device scaled pykc_device__scaled__i64_f32_i32 float64(int64, float32, int32)
# CHECK:STDOUT:   count: int32
# CHECK:STDOUT:   tid: int64
# CHECK:STDOUT:   x: float32
