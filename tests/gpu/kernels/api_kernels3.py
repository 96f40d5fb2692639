"""numba.cuda kernel API coverage for pykc (issue 4), part 3: complex64/complex128
(arithmetic, abs, .real/.imag/.conjugate(), complex(), cmath), complex scalars as
kernel arguments. tests/gpu/cases/api_cases3.py holds the NumPy references.

Compile: pykc compile tests/gpu/kernels/api_kernels3.py --arch sm_90 -o <root>/api_kernels3
"""
import cmath

from numba import cuda, complex64, complex128, float32


@cuda.jit("void(complex64[::1], complex128[::1], float32[::1], int32[::1], complex128[:, ::1])")
def complex_arith(a, b, f, n, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    out[i, 0] = a[i] + f[i]
    out[i, 1] = a[i] * n[i] - b[i] / a[i]
    out[i, 2] = abs(b[i]) + a[i].real + b[i].imag * 1j
    out[i, 3] = a[i].conjugate() + complex(f[i], 2.0) + 1j
    out[i, 4] = (a[i] == b[i]) + (a[i] != 1j) * 2 + (b[i] == b[i]) * 4
    out[i, 5] = -b[i] + complex64(f[i]) + complex128(a[i]) - f[i].imag
    s = complex64(0)
    for k in range(3):
        s += a[(i + k) % a.shape[0]] * complex64(1 + 1j)
    out[i, 6] = s
    loc = cuda.local.array(2, complex128)
    loc[0] = b[i]
    loc[1] = loc[0] * loc[0]
    out[i, 7] = loc[1] / (b[i] + 3)


@cuda.jit("void(complex128[::1], complex128[:, ::1], float64[:, ::1])")
def complex_cmath(z, out, outr):
    i = cuda.grid(1)
    if i >= z.shape[0]:
        return
    v = z[i]
    out[i, 0] = cmath.exp(v)
    out[i, 1] = cmath.log(v)
    out[i, 2] = cmath.sqrt(v)
    out[i, 3] = cmath.sin(v)
    out[i, 4] = cmath.cos(v)
    out[i, 5] = cmath.tan(v)
    out[i, 6] = cmath.sinh(v)
    out[i, 7] = cmath.cosh(v)
    out[i, 8] = cmath.tanh(v)
    out[i, 9] = cmath.log10(v)
    r, p = cmath.polar(v)
    out[i, 10] = cmath.rect(r, p)
    outr[i, 0] = cmath.phase(v)
    outr[i, 1] = r
    outr[i, 2] = cmath.isnan(v) + 2 * cmath.isinf(v) + 4 * cmath.isfinite(v)


@cuda.jit("void(complex64[::1], complex64, complex128)")
def complex_scalars(x, c, d):
    i = cuda.grid(1)
    if i < x.shape[0]:
        x[i] = x[i] * c + complex64(d)
