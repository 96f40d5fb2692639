"""Black-Scholes European options (float64, as numba's own example), grid-stride,
with a device function for the cumulative normal distribution."""
import math

from numba import cuda

A1 = 0.31938153
A2 = -0.356563782
A3 = 1.781477937
A4 = -1.821255978
A5 = 1.330274429
RSQRT2PI = 0.39894228040143267793994605993438


@cuda.jit(device=True)
def cnd(d):
    k = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
    ret = RSQRT2PI * math.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    if d > 0:
        ret = 1.0 - ret
    return ret


@cuda.jit("void(float64[::1], float64[::1], float64[::1], float64[::1], float64[::1], float64, float64)")
def black_scholes(call, put, s, x, t, r, v):
    for i in range(cuda.grid(1), s.shape[0], cuda.gridsize(1)):
        sqrt_t = math.sqrt(t[i])
        d1 = (math.log(s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        cnd1 = cnd(d1)
        cnd2 = cnd(d2)
        exp_rt = math.exp(-r * t[i])
        call[i] = s[i] * cnd1 - x[i] * exp_rt * cnd2
        put[i] = x[i] * exp_rt * (1.0 - cnd2) - s[i] * (1.0 - cnd1)
