# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# numba's typing of complex `**` and pow() (the joint complex type, as + - * /: numba-cuda
# lowers only complex ** complex) and of the inverse cmath functions (the argument's
# complex type; a real argument converts, float32 to complex64), cmath.log(z, base) and
# cmath.infj/nanj (complex128).
import cmath

from numba import cuda


@cuda.jit("void(complex64[::1], complex128[::1], float32[::1], int32[::1], int16[::1])")
def k(a, b, f, n, h):
    c64_c64 = a[0] ** a[1]
    c64_f32 = a[0] ** f[0]
    c64_i16 = a[0] ** h[0]
    c64_i32 = a[0] ** n[0]
    c64_lit = a[0] ** 2
    f32_c64 = f[0] ** a[0]
    c64_c128 = pow(a[0], b[0])
    aug = a[0]
    aug **= f[0]
    acos = cmath.acos(a[0])
    asin = cmath.asin(b[0])
    atan = cmath.atan(f[0])
    acosh = cmath.acosh(a[0])
    asinh = cmath.asinh(n[0])
    atanh = cmath.atanh(a[0])
    log_base = cmath.log(a[0], a[1])
    log_base_wide = cmath.log(a[0], 2.0)
    infj = cmath.infj
    nanj_sum = a[0] + cmath.nanj
# CHECK:STDOUT: kernel k k__c64a1C_c128a1C_f32a1C_i32a1C_i16a1C void(complex64[::1], complex128[::1], float32[::1], int32[::1], int16[::1])
# CHECK:STDOUT:   a: array(complex64, 1d, C)
# CHECK:STDOUT:   acos: complex64
# CHECK:STDOUT:   acosh: complex64
# CHECK:STDOUT:   asin: complex128
# CHECK:STDOUT:   asinh: complex128
# CHECK:STDOUT:   atan: complex64
# CHECK:STDOUT:   atanh: complex64
# CHECK:STDOUT:   aug: complex64
# CHECK:STDOUT:   b: array(complex128, 1d, C)
# CHECK:STDOUT:   c64_c128: complex128
# CHECK:STDOUT:   c64_c64: complex64
# CHECK:STDOUT:   c64_f32: complex64
# CHECK:STDOUT:   c64_i16: complex64
# CHECK:STDOUT:   c64_i32: complex128
# CHECK:STDOUT:   c64_lit: complex128
# CHECK:STDOUT:   f: array(float32, 1d, C)
# CHECK:STDOUT:   f32_c64: complex64
# CHECK:STDOUT:   h: array(int16, 1d, C)
# CHECK:STDOUT:   infj: complex128
# CHECK:STDOUT:   log_base: complex64
# CHECK:STDOUT:   log_base_wide: complex128
# CHECK:STDOUT:   n: array(int32, 1d, C)
# CHECK:STDOUT:   nanj_sum: complex128
