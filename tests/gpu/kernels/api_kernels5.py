"""numba.cuda kernel API coverage for pykc (issue 4), part 5: the rest of `cmath`
(acos asin atan acosh asinh atanh, log with a base), numba-cuda's special inf/NaN
values for every cmath function, complex `**` and `pow`, and assignments to slices
(augmented, broadcast). tests/gpu/cases/api_cases5.py holds the references.

Compile: pykc compile tests/gpu/kernels/api_kernels5.py --arch sm_90 -o <root>/api_kernels5
"""
import cmath

from numba import cuda


@cuda.jit("void(complex128[::1], complex128[:, ::1])")
def cmath_all128(z, out):
    i = cuda.grid(1)
    if i >= z.shape[0]:
        return
    v = z[i]
    out[i, 0] = cmath.acos(v)
    out[i, 1] = cmath.asin(v)
    out[i, 2] = cmath.atan(v)
    out[i, 3] = cmath.acosh(v)
    out[i, 4] = cmath.asinh(v)
    out[i, 5] = cmath.atanh(v)
    out[i, 6] = cmath.exp(v)
    out[i, 7] = cmath.log(v)
    out[i, 8] = cmath.log10(v)
    out[i, 9] = cmath.sqrt(v)
    out[i, 10] = cmath.sin(v)
    out[i, 11] = cmath.cos(v)
    out[i, 12] = cmath.tan(v)
    out[i, 13] = cmath.sinh(v)
    out[i, 14] = cmath.cosh(v)
    out[i, 15] = cmath.tanh(v)
    out[i, 16] = cmath.rect(v.real, v.imag)


@cuda.jit("void(complex64[::1], complex64[:, ::1])")
def cmath_all64(z, out):
    i = cuda.grid(1)
    if i >= z.shape[0]:
        return
    v = z[i]
    out[i, 0] = cmath.acos(v)
    out[i, 1] = cmath.asin(v)
    out[i, 2] = cmath.atan(v)
    out[i, 3] = cmath.acosh(v)
    out[i, 4] = cmath.asinh(v)
    out[i, 5] = cmath.atanh(v)
    out[i, 6] = cmath.exp(v)
    out[i, 7] = cmath.log(v)
    out[i, 8] = cmath.log10(v)
    out[i, 9] = cmath.sqrt(v)
    out[i, 10] = cmath.sin(v)
    out[i, 11] = cmath.cos(v)
    out[i, 12] = cmath.tan(v)
    out[i, 13] = cmath.sinh(v)
    out[i, 14] = cmath.cosh(v)
    out[i, 15] = cmath.tanh(v)
    out[i, 16] = cmath.rect(v.real, v.imag)


@cuda.jit("void(complex128[::1], complex128[::1], complex128[:, ::1])")
def cmath_log_base(z, b, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        out[i, 0] = cmath.log(z[i], b[i])
        out[i, 1] = cmath.log(z[i], 2.0)


@cuda.jit("void(complex128[::1], complex128[::1], complex64[::1], complex64[::1], int32[::1], "
          "float64[::1], complex128[:, ::1], complex64[:, ::1])")
def complex_pow(a, b, c, d, n, f, out, out64):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    out[i, 0] = a[i] ** b[i]
    out[i, 1] = a[i] ** n[i]
    out[i, 2] = a[i] ** f[i]
    out[i, 3] = f[i] ** b[i]
    out[i, 4] = pow(a[i], b[i])
    out[i, 5] = a[i] ** 2
    w = a[i]
    w **= 0.5
    out[i, 6] = w
    out64[i, 0] = c[i] ** d[i]
    out64[i, 1] = pow(c[i], d[i])
    out64[i, 2] = c[i] ** c[i]
