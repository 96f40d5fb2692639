"""numba.cuda kernel API coverage for pykc (issue 4), part 2: constant arrays, device
functions (recursion, inline, untyped, views as arguments), print, math, arrays of
3 and 4 dimensions, non-contiguous layouts, local and dynamic shared arrays.
tests/gpu/cases/api_cases2.py holds the NumPy references.

Compile: pykc compile tests/gpu/kernels/api_kernels2.py --arch sm_90 -o <root>/api_kernels2
"""
import math

import numpy as np
from numba import cuda, float32, float64, int32, int64

LUT = np.array([1.0, 0.5, 0.25, 0.125, -1.0, -0.5, -0.25, -0.125], dtype=np.float32)
STENCIL = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=np.int32)
FLAGS = np.array([True, False, True, True])
OFFSETS = (3, -1, 4)
SCALE = 0.5


# ----------------------------------------------------------------------------- constant memory

@cuda.jit("void(int32[::1], float32[::1], int32[:, ::1], int64[::1])")
def const_arrays(idx, out, img, out2):
    lut = cuda.const.array_like(LUT)
    i = cuda.grid(1)
    if i < idx.shape[0]:
        out[i] = lut[idx[i] % 8] + LUT[(idx[i] + 1) % 8]
    # 3x3 stencil from a constant 2-d array over an image (edges skipped).
    h, w = img.shape
    if i < (h - 2) * (w - 2):
        r = i // (w - 2) + 1
        c = i % (w - 2) + 1
        s = 0
        for dr in range(3):
            for dc in range(3):
                s += STENCIL[dr, dc] * img[r + dr - 1, c + dc - 1]
        out2[i] = s + FLAGS[i % 4] + STENCIL.shape[0] * 1000 + len(FLAGS) * 10000


# ----------------------------------------------------------------------------- device functions

@cuda.jit("int64(int64)", device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit("float64(float64, int64)", device=True)
def power_rec(x, n):
    if n == 0:
        return 1.0
    half = power_rec(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


@cuda.jit(device=True, inline="always")
def axpy_inline(a, x, y):
    return a * x + y


@cuda.jit(device=True)
def row_sum(row):
    s = 0.0
    for k in range(row.shape[0]):
        s += row[k]
    return s


@cuda.jit(device=True)
def offsets_total():
    return OFFSETS[0] + OFFSETS[1] + OFFSETS[2]


@cuda.jit(device=True)
def minmax(a, b):
    return min(a, b), max(a, b)


@cuda.jit("void(int64[::1], float64[::1], float64[:, ::1], float64[:, ::1])")
def device_functions(n, x, m, out):
    i = cuda.grid(1)
    if i >= n.shape[0]:
        return
    out[i, 0] = fib(n[i] % 20)
    out[i, 1] = power_rec(x[i], n[i] % 9)
    out[i, 2] = axpy_inline(SCALE, y=1.0, x=x[i])   # keyword arguments
    out[i, 3] = axpy_inline(int32(2), int32(3), int32(n[i]))
    out[i, 4] = row_sum(m[i])                 # a row view
    out[i, 5] = row_sum(m[:, i % m.shape[1]])  # a column view (strided)
    out[i, 6] = row_sum(m[i, 1::2])           # a stepped slice
    lo, hi = minmax(x[i], 0.25)
    out[i, 7] = hi - lo + offsets_total()


# ----------------------------------------------------------------------------- print

@cuda.jit("void(int32, float64, uint8)")
def printer(a, b, c):
    if cuda.grid(1) == 0:
        print("values", a, b, c, a > 0, (a, b))
        print(-a, float32(1.5), True)
        print()


# ----------------------------------------------------------------------------- math

@cuda.jit("void(float64[::1], int64[::1], float32[::1], float64[:, ::1], float32[:, ::1])")
def math_rest(x, k, f, out, outf):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    v = x[i]
    out[i, 0] = math.copysign(v, -1.0) + math.hypot(v, 3.0) + math.atan2(v, 2.0)
    m, e = math.frexp(v)
    out[i, 1] = m + e
    out[i, 2] = math.ldexp(v, 3) + math.fmod(v, 0.7) + math.remainder(v, 0.7)
    fr, wh = math.modf(v)
    out[i, 3] = fr * 10 + wh
    out[i, 4] = math.erf(v) + math.erfc(v) * 2 + math.lgamma(abs(v) + 0.5)
    out[i, 5] = math.gamma(abs(v) / 4 + 0.5) + math.trunc(v) + math.degrees(v) + math.radians(v)
    out[i, 6] = math.sqrt(k[i]) + math.exp(k[i] % 5) + cuda.cbrt(v)
    out[i, 7] = math.isnan(v) + 2 * math.isinf(v) + 4 * math.isfinite(v) + math.isfinite(k[i])
    out[i, 8] = math.nextafter(v, 10.0) - v
    out[i, 9] = cuda.fma(v, 2.0, 1.0) + math.expm1(v / 10) + math.log1p(abs(v))
    w = f[i]
    outf[i, 0] = math.sin(w) + math.cos(w) * math.tan(w / 4)
    outf[i, 1] = math.hypot(w, float32(2)) + math.copysign(w, float32(-1))
    outf[i, 2] = cuda.fma(w, w, float32(1)) + math.floor(w) + math.ceil(w)


# ----------------------------------------------------------------------------- arrays

@cuda.jit("void(float32[:, :, ::1], float32[:, :, :, ::1], float64[:, :], float32[::1, :], float64[::1])")
def arrays_nd(a3, a4, strided, fortran, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    s = 0.0
    for p in range(a3.shape[0]):
        for q in range(a3.shape[1]):
            s += a3[p, q, i % a3.shape[2]]
    t = 0.0
    for p in range(a4.shape[0]):
        t += a4[p, -1, i % a4.shape[2], -(i % a4.shape[3]) - 1]
    u = 0.0
    for q in range(strided.shape[1]):
        u += strided[i % strided.shape[0], q]
    w = 0.0
    for q in range(fortran.shape[1]):
        w += fortran[i % fortran.shape[0], q] * (q + 1)
    out[i] = s + 10 * t + 100 * u + 1000 * w + a4.ndim + a3.size


@cuda.jit("void(float64[::1], float64[:, ::1])")
def local_2d(x, out):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    tile = cuda.local.array((3, 4), float64)
    for r in range(3):
        for c in range(4):
            tile[r, c] = x[i] * r + c
    acc = 0.0
    for r in range(3):
        for c in range(4):
            acc += tile[r, c] * tile[2 - r, 3 - c]
    out[i, 0] = acc
    out[i, 1] = tile[-1, -1]


@cuda.jit("void(float32[::1], float32[::1])")
def dynamic_shared(x, out):
    buf = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.shape[0] else float32(0)
    cuda.syncthreads()
    if i < x.shape[0]:
        out[i] = buf[cuda.blockDim.x - 1 - t] + buf.shape[0]


# ----------------------------------------------------------------------------- debug=True

@cuda.jit("void(float32[::1], float32)", debug=True)
def debug_checks(x, limit):
    # A failing assert or raise stores its code in the module's `pykc_error` word
    # and ends the thread; the loader raises the exception after the launch.
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    assert x[i] == x[i], "NaN input"
    if x[i] > limit:
        raise ValueError("value above limit")
    x[i] = x[i] * float32(2)


# ----------------------------------------------------------------------------- slice assignment

@cuda.jit("void(float32[:, ::1], float64[::1], int32[:, :])")
def slice_assign(a, b, m):
    # One thread: broadcast scalars and copy arrays into views.
    if cuda.grid(1) == 0:
        a[1:3, ::2] = 7
        a[0, :] = b[: a.shape[1]]
        b[::3] = -1.5
        m[:, 1] = m[:, 0]
        row = a[3]
        row[:] = 0
        a[a.shape[0] - 2:, -2:] = a[:2, :2]


# ----------------------------------------------------------------------------- tuple arguments

@cuda.jit(device=True)
def tuple_mix(t):
    return t[0] * t[1] + t[2][1]


@cuda.jit("void(Tuple((int32, float64, UniTuple(int64, 2))), float64[::1])")
def tuple_args(t, out):
    # A heterogeneous, nested tuple argument: flattened into 4 parameters (docs/ABI.md).
    i = cuda.grid(1)
    if i < out.shape[0]:
        a, b, c = t
        out[i] = a + b * c[0] + tuple_mix(t) + i


# ----------------------------------------------------------------------------- arrays returned

@cuda.jit(device=True)
def second_half(a):
    return a[a.shape[0] // 2:]


@cuda.jit(device=True)
def row_or_col(m, i, use_row):
    if use_row:
        return m[i, :]
    return m[:, i]


@cuda.jit("void(float32[::1], float32[:, ::1], float32[::1])")
def returned_views(x, m, out):
    # Device functions returning views (C and A layouts unify to A).
    h = second_half(x)
    i = cuda.grid(1)
    if i < h.shape[0]:
        out[i] = h[i] + row_or_col(m, 1, i % 2 == 0)[0]


# ----------------------------------------------------------------------------- recursion, inferred

@cuda.jit(device=True)
def fact_inferred(n):
    if n <= 1:
        return 1
    return n * fact_inferred(n - 1)


@cuda.jit(device=True)
def halves_inferred(x):
    if x <= 0:
        return 1
    return 0.5 * halves_inferred(x - 1)


@cuda.jit("void(int64[::1], float64[::1])")
def recursion_inferred(k, out):
    # No signatures: the recursive calls take the base case's type (numba's rule).
    i = cuda.grid(1)
    if i < k.shape[0]:
        out[i] = fact_inferred(k[i] % 15) + halves_inferred(k[i] % 6)
