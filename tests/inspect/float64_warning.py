# ARGS: --diag-kinds compile %s --phase=check
"""-Wfloat64 (on by default): float64 arithmetic in a kernel whose arrays
are all float32, once per line, at the innermost operation, with a note
naming the operand that brought float64 in."""
import math

import numpy as np
from numba import cuda, float32


@cuda.jit("void(float32[::1], float32[::1], int64)")
def scale(x, out, n):
    i = cuda.grid(1)
    if i < x.size:
        # CHECK:STDERR: float64_warning.py:[[@LINE+7]]:18: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 * float64` computes in float64 [float64-arithmetic]
        # CHECK:STDERR:         out[i] = x[i] * 2.0 + 1.0
        # CHECK:STDERR:                  ^~~~~~~~~~
        # CHECK:STDERR: float64_warning.py:[[@LINE+4]]:25: note: `2.0` is a float64 literal; write `float32(2.0)` to compute in float32
        # CHECK:STDERR:         out[i] = x[i] * 2.0 + 1.0
        # CHECK:STDERR:                         ^~~
        # CHECK:STDERR:
        out[i] = x[i] * 2.0 + 1.0
        # CHECK:STDERR: float64_warning.py:[[@LINE+7]]:19: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 / int64` computes in float64 [float64-arithmetic]
        # CHECK:STDERR:         out[i] += x[i] / n
        # CHECK:STDERR:                   ^~~~~~~~
        # CHECK:STDERR: float64_warning.py:[[@LINE+4]]:26: note: `n` is `int64`, which turns float32 arithmetic into float64; convert it with `float32(...)`
        # CHECK:STDERR:         out[i] += x[i] / n
        # CHECK:STDERR:                          ^
        # CHECK:STDERR:
        out[i] += x[i] / n
        # CHECK:STDERR: float64_warning.py:[[@LINE+7]]:18: warning: float64 arithmetic in a kernel whose arrays are float32: `math.exp(int64)` computes in float64 [float64-arithmetic]
        # CHECK:STDERR:         out[i] = math.exp(i)
        # CHECK:STDERR:                  ^~~~~~~~~~~
        # CHECK:STDERR: float64_warning.py:[[@LINE+4]]:27: note: `i` is `int64`, which turns float32 arithmetic into float64; convert it with `float32(...)`
        # CHECK:STDERR:         out[i] = math.exp(i)
        # CHECK:STDERR:                           ^
        # CHECK:STDERR:
        out[i] = math.exp(i)
        acc = float32(0)
        # CHECK:STDERR: float64_warning.py:[[@LINE+7]]:9: warning: float64 arithmetic in a kernel whose arrays are float32: `float64 += float64` computes in float64 [float64-arithmetic]
        # CHECK:STDERR:         acc += 0.5
        # CHECK:STDERR:         ^~~~~~~~~~
        # CHECK:STDERR: float64_warning.py:[[@LINE+4]]:16: note: `0.5` is a float64 literal; write `float32(0.5)` to compute in float32
        # CHECK:STDERR:         acc += 0.5
        # CHECK:STDERR:                ^~~
        # CHECK:STDERR:
        acc += 0.5
        out[i] = x[i] * float32(2.0) + np.float32(1.0)


@cuda.jit("void(float64[::1])")
def double_precision(x):
    # float64 arrays: float64 arithmetic is what the author asked for.
    i = cuda.grid(1)
    x[i] = x[i] * 2.0


@cuda.jit("void(int32[::1])")
def integers(x):
    # No float arrays: nothing to warn about.
    i = cuda.grid(1)
    x[i] = int(x[i] * 0.5)
