# ARGS: --arch sm_90
"""fastmath=True (per kernel) and --use-fast-math (whole file) give approximate
division and square root; without them, IEEE division and rounding square root."""
import math

from numba import cuda


@cuda.jit("void(float32[::1])", fastmath=True)
def fast(x):
    i = cuda.grid(1)
    x[i] = x[i] / 3.0 if False else math.sqrt(x[i]) / x[i + 1]


@cuda.jit("void(float32[::1])")
def precise(x):
    i = cuda.grid(1)
    x[i] = math.sqrt(x[i]) / x[i + 1]

# PTX-IN fast: sqrt\.approx\.f32
# PTX-IN fast: div\.(approx|full)\.f32
# PTX-IN precise: sqrt\.rn\.f32
# PTX-IN precise: div\.rn\.f32
