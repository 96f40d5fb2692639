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
        out[i, 2] = z[i] + cmath.infj        # cmath's complex constants


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



@cuda.jit("void(complex64[::1], complex64[:, ::1])", fastmath=True)
def cmath_fast64(z, out):
    # fastmath=True: libdevice's fast float32 functions inside cmath, as numba.
    i = cuda.grid(1)
    if i < z.shape[0]:
        v = z[i]
        out[i, 0] = cmath.exp(v)
        out[i, 1] = cmath.log(v)
        out[i, 2] = cmath.sin(v)
        out[i, 3] = cmath.sqrt(v)
        out[i, 4] = v ** z[(i + 1) % z.shape[0]]


# ----------------------------------------------------------------------------- slices


@cuda.jit("void(float32[:, ::1], float64[::1], int32[:, :], float64[:, ::1], float32[:, ::1], "
          "complex128[:, ::1])")
def slice_ops(a, v, m, c, col, z):
    # One thread applies them in order (the case replays them in NumPy).
    if cuda.grid(1) != 0:
        return
    n = a.shape[1]
    a[1:3] += 1.5                     # a number into a 2-d view, in place
    a[0, :] -= v[:n]                  # a float64 array into a float32 row
    a[3:5, :] = v[:n]                 # a row broadcast onto two rows
    a[5:, 1:] *= a[0, 1:]             # in place, a row broadcast onto rows
    c[:, :] = col                     # a column (extent 1) broadcast across columns
    c[:] += 2                         # a 2-d view by a 1-d slice
    c[1:, ::2] /= c[0, ::2]
    m[:, 0] //= 3                     # a strided column of an A-layout array
    m[1:, :] %= m[0, :]
    m[::2] **= 2
    m[-1, :] = 9
    v[1:4] = 7
    v[4:7] = (3, 5, -1)               # a tuple of one type into a 1-d slice
    v[::2] /= 4.0
    z[:, 1] = v[: z.shape[0]]         # real numbers into complex ones
    z[0, :] **= 2
    z[1:, :] *= 1j


@cuda.jit(device=True)
def copy_into(dst, src):
    dst[:] = src
    return 1


@cuda.jit("void(float32[::1], float32[::1], int32[::1])")
def slice_mismatch(a, b, flag):
    # Thread 0's shapes differ: numba's ValueError ends the thread (no debug).
    i = cuda.grid(1)
    if i == 0:
        a[0:3] = b[0:2]
        flag[0] = 1
    elif i == 1:
        a[3:5] = b[0:2]
        flag[1] = 1
    elif i == 2:
        flag[2] = copy_into(a[5:8], b[0:2])
    elif i == 3:
        flag[3] = copy_into(a[8:10], b[2:4])
    elif i == 4:
        a[10:12] += b[0:3]
        flag[4] = 1
    elif i == 5:
        a[12:15] = (1.0, 2.0)
        flag[5] = 1
    elif i == 6:
        a[14:16] = (1.0, 2.0)
        flag[6] = 1


@cuda.jit("void(float32[::1], float32[::1])", debug=True)
def slice_mismatch_debug(a, b):
    if cuda.grid(1) == 0:
        a[0:3] = b[0:2]
