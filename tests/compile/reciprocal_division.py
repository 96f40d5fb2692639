# ARGS: --arch sm_90
# numba kernels dividing by one value many times (a loop-invariant divisor; one
# divisor for several quotients) on a GPU with full-rate float64: the divisor's float64
# reciprocal once, each quotient a float64 product rounded to float32, IEEE's quotient
# bit for bit (backend/passes/reciprocal_division.h); no div.rn.f32 left in them. A single
# division stays div.rn.f32.
# PTX-IN scale_rows: rcp\.approx\.ftz\.f64
# PTX-IN scale_rows: cvt\.rn\.f32\.f64
# PTX-NOT-IN scale_rows: div\.rn\.f32
# PTX-NOT-IN scale_rows: rcp\.rn\.f64
# PTX-IN pair: rcp\.approx\.ftz\.f64
# PTX-NOT-IN pair: div\.rn\.f32
# PTX-IN single: div\.rn\.f32
# PTX-NOT-IN single: \.f64
# PTX-IN by_three: mul(\.rn)?\.f64
# PTX-NOT-IN by_three: div\.rn\.f32
# PTX-NOT-IN by_three: rcp
from numba import cuda, float32


@cuda.jit("void(float32[:, ::1], float32[::1])")
def scale_rows(x, s):
    row = cuda.blockIdx.x
    d = s[row]
    for j in range(cuda.threadIdx.x, x.shape[1], cuda.blockDim.x):
        x[row, j] = x[row, j] / d


@cuda.jit("void(float32[::1], float32[::1], float32)")
def pair(a, b, d):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] / d
        b[i] = b[i] / d


@cuda.jit("void(float32[::1], float32[::1])")
def single(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] / b[i]


@cuda.jit("void(float32[::1])")
def by_three(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] / float32(3.0)
