"""Device functions are specialised per argument types and inlined; libdevice math is
linked (no external calls remain); tuples returned from device functions."""
import math

from numba import cuda


@cuda.jit(device=True)
def gelu(v):
    return 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))


@cuda.jit(device=True)
def minmax(a, b):
    return min(a, b), max(a, b)


@cuda.jit("void(float64[:, :], float64[:, :])")
def gelu_2d(x, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        lo, hi = minmax(i, j)
        out[i, j] = gelu(x[i, j]) + gelu(float(lo)) * 0 + hi * 0

# PTX-NOT: \.func
# PTX-NOT: call\.uni
# PTX-NOT: __nv_
# PTX-IN gelu_2d: ld\.global\.f64
# LL: define internal double @pykc_device__gelu__f64\(double %v\)
# LL: define internal \{ i64, i64 \} @pykc_device__minmax__i64_i64\(i64 %a, i64 %b\)
# LL: declare double @__nv_tanh\(double\)
# MANIFEST: len(m["kernels"]) == 1 and m["kernels"][0]["symbol"] == "gelu_2d__f64a2A_f64a2A"
