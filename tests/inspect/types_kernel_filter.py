# ARGS: inspect %s::good --emit types
# FILE::KERNEL checks that kernel alone: `bad`'s type error does not stop it.
from numba import cuda


@cuda.jit("void(float32[::1])")
def good(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] + x[i]


@cuda.jit("void(float32, float32[::1])")
def bad(a, x):
    x[0] = a[0]
# CHECK:STDOUT: # kernel good void(float32[::1]) [good__f32a1C]
# CHECK:STDOUT:     6 | @cuda.jit("void(float32[::1])")
# CHECK:STDOUT:     7 | def good(x):
# CHECK:STDOUT:       |     # x: array(float32, 1d, C)
# CHECK:STDOUT:     8 |     i = cuda.grid(1)
# CHECK:STDOUT:       |     # i: int64
# CHECK:STDOUT:     9 |     if i < x.size:
# CHECK:STDOUT:    10 |         x[i] = x[i] + x[i]
