"""numba.cuda kernel API coverage for pykc (issue 4), part 4: float16 (native half
arithmetic, conversions, cuda.fp16 functions, math on float16, float16 scalar
arguments). tests/gpu/cases/api_cases4.py holds the NumPy references.

Compile: pykc compile tests/gpu/kernels/api_kernels4.py --arch sm_90 -o <root>/api_kernels4
"""
import math

from numba import cuda
from numba.types import float16


@cuda.jit("void(float16[::1], float16[::1], float32[::1], float16[:, ::1], float16)")
def half_ops(a, b, f, out, s):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    x = a[i]
    y = b[i]
    out[i, 0] = x + y * s
    out[i, 1] = x * y - x / y
    out[i, 2] = -x + abs(y)
    out[i, 3] = float16(f[i]) + float16(x > y)
    out[i, 4] = cuda.fp16.hadd(x, y) + cuda.fp16.hmul(x, y) - cuda.fp16.hsub(x, y)
    out[i, 5] = cuda.fp16.hfma(x, y, s) - cuda.fp16.hneg(x) + cuda.fp16.hdiv(x, y)
    out[i, 6] = cuda.fp16.hsin(x) + cuda.fp16.hcos(y) + cuda.fp16.hexp(x)
    out[i, 7] = cuda.fp16.hmax(x, y) + cuda.fp16.hmin(x, y) + cuda.fp16.habs(x)
    out[i, 8] = cuda.fp16.heq(x, y) + cuda.fp16.hlt(x, y) * float16(2) + cuda.fp16.hge(x, y) * float16(4)
    out[i, 9] = math.sqrt(abs(x)) + math.sin(y)
    out[i, 10] = x * f[i]
    out[i, 11] = x // y
    out[i, 12] = cuda.fp16.hsqrt(abs(y)) + cuda.fp16.hfloor(x) + cuda.fp16.hceil(y)
    out[i, 13] = cuda.fp16.hlog(abs(y)) + cuda.fp16.hexp2(x) + cuda.fp16.hrcp(y)
