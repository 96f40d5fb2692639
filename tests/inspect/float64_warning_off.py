# ARGS: --diag-kinds compile %s --phase=check -Wno-float64
"""-Wno-float64 turns the float64-arithmetic warning off (nothing printed)."""
import math

import numpy as np
from numba import cuda, float32


@cuda.jit("void(float32[::1], float32[::1], int64)")
def scale(x, out, n):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2.0 + 1.0
        out[i] += x[i] / n
        out[i] = math.exp(i)
        acc = float32(0)
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
