# ARGS: --diag-kinds inspect %s --emit types -Wno-float64
"""`--emit types`: every variable's type beside the line that binds it, and
float64 arithmetic marked in float32 kernels (the warning is off here; see
float64_warning.py)."""
import math

from numba import cuda, float32


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = a * x[i] + y[i]


@cuda.jit(device=True)
def scaled(v, n):
    # Called with the float64 `t` of `trap`: float64 throughout.
    return v / n


@cuda.jit(["void(float32[::1], int64)", "void(float64[::1], int64)"])
def trap(x, n):
    i = cuda.grid(1)
    if i < x.size:
        t = x[i] * 2.0
        x[i] = scaled(t, n) + float32(0.5) + math.sqrt(i)
# CHECK:STDOUT: # kernel saxpy void(float32, float32[::1], float32[::1], float32[::1]) [saxpy__f32_f32a1C_f32a1C_f32a1C]
# CHECK:STDOUT:    10 | @cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
# CHECK:STDOUT:    11 | def saxpy(a, x, y, out):
# CHECK:STDOUT:       |     # a: float32, x: array(float32, 1d, C), y: array(float32, 1d, C), out: array(float32, 1d, C)
# CHECK:STDOUT:    12 |     start = cuda.grid(1)
# CHECK:STDOUT:       |     # start: int64
# CHECK:STDOUT:    13 |     stride = cuda.gridsize(1)
# CHECK:STDOUT:       |     # stride: int64
# CHECK:STDOUT:    14 |     for i in range(start, x.shape[0], stride):
# CHECK:STDOUT:       |     # i: int64
# CHECK:STDOUT:    15 |         out[i] = a * x[i] + y[i]
# CHECK:STDOUT:
# CHECK:STDOUT: # kernel trap void(float32[::1], int64) [trap__f32a1C_i64]
# CHECK:STDOUT:    24 | @cuda.jit(["void(float32[::1], int64)", "void(float64[::1], int64)"])
# CHECK:STDOUT:    25 | def trap(x, n):
# CHECK:STDOUT:       |     # x: array(float32, 1d, C), n: int64
# CHECK:STDOUT:    26 |     i = cuda.grid(1)
# CHECK:STDOUT:       |     # i: int64
# CHECK:STDOUT:    27 |     if i < x.size:
# CHECK:STDOUT:    28 |         t = x[i] * 2.0
# CHECK:STDOUT:       |         # t: float64
# CHECK:STDOUT:       |         # float64 arithmetic: `float32 * float64` in `x[i] * 2.0`
# CHECK:STDOUT:    29 |         x[i] = scaled(t, n) + float32(0.5) + math.sqrt(i)
# CHECK:STDOUT:       |         # float64 arithmetic: `float64 + float32` in `scaled(t, n) + float32(0.5)`
# CHECK:STDOUT:       |         # float64 arithmetic: `math.sqrt(int64)` in `math.sqrt(i)`
# CHECK:STDOUT:
# CHECK:STDOUT: # device scaled float64(float64, int64) [pykc_device__scaled__f64_i64]
# CHECK:STDOUT:    18 | @cuda.jit(device=True)
# CHECK:STDOUT:    19 | def scaled(v, n):
# CHECK:STDOUT:       |     # v: float64, n: int64
# CHECK:STDOUT:    20 |     # Called with the float64 `t` of `trap`: float64 throughout.
# CHECK:STDOUT:    21 |     return v / n
# CHECK:STDOUT:       |     # float64 arithmetic: `float64 / int64` in `v / n`
# CHECK:STDOUT:
# CHECK:STDOUT: # kernel trap void(float64[::1], int64) [trap__f64a1C_i64]
# CHECK:STDOUT:    24 | @cuda.jit(["void(float32[::1], int64)", "void(float64[::1], int64)"])
# CHECK:STDOUT:    25 | def trap(x, n):
# CHECK:STDOUT:       |     # x: array(float64, 1d, C), n: int64
# CHECK:STDOUT:    26 |     i = cuda.grid(1)
# CHECK:STDOUT:       |     # i: int64
# CHECK:STDOUT:    27 |     if i < x.size:
# CHECK:STDOUT:    28 |         t = x[i] * 2.0
# CHECK:STDOUT:       |         # t: float64
# CHECK:STDOUT:    29 |         x[i] = scaled(t, n) + float32(0.5) + math.sqrt(i)
