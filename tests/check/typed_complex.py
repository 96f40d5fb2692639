# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# numba's complex typing (checked with numba.cuda.compile_ptx): NumPy promotion with
# floats and ints (complex64 with int32 is complex128), complex() of the parts' type,
# abs/.real/.imag of the part type, 1j is complex128, cmath keeps the width.
import cmath

from numba import complex64, cuda


@cuda.jit("void(complex64[::1], complex128[::1], float32[::1], int32[::1], int16[::1])")
def k(a, b, f, n, h):
    with_f32 = a[0] + f[0]
    with_int = a[0] * 2
    with_i32 = a[0] + n[0]
    with_i16 = a[0] * h[0]
    quotient = a[0] / b[0]
    magnitude = abs(a[0])
    real = a[0].real
    imag_of_real = f[0].imag
    conj = a[0].conjugate()
    built = complex(f[0], f[0])
    built1 = complex(f[0])
    exp32 = cmath.exp(a[0])
    exp_real = cmath.exp(f[0])
    root = cmath.sqrt(b[0])
    literal = 1j
    same = a[0] == b[0]
    cast = complex64(f[0])
    neg = -a[0]
    nan = cmath.isnan(a[0])
# CHECK:STDOUT: kernel k k__c64a1C_c128a1C_f32a1C_i32a1C_i16a1C void(complex64[::1], complex128[::1], float32[::1], int32[::1], int16[::1])
# CHECK:STDOUT:   a: array(complex64, 1d, C)
# CHECK:STDOUT:   b: array(complex128, 1d, C)
# CHECK:STDOUT:   built: complex64
# CHECK:STDOUT:   built1: complex64
# CHECK:STDOUT:   cast: complex64
# CHECK:STDOUT:   conj: complex64
# CHECK:STDOUT:   exp32: complex64
# CHECK:STDOUT:   exp_real: complex64
# CHECK:STDOUT:   f: array(float32, 1d, C)
# CHECK:STDOUT:   h: array(int16, 1d, C)
# CHECK:STDOUT:   imag_of_real: float32
# CHECK:STDOUT:   literal: complex128
# CHECK:STDOUT:   magnitude: float32
# CHECK:STDOUT:   n: array(int32, 1d, C)
# CHECK:STDOUT:   nan: bool
# CHECK:STDOUT:   neg: complex64
# CHECK:STDOUT:   quotient: complex128
# CHECK:STDOUT:   real: float32
# CHECK:STDOUT:   root: complex128
# CHECK:STDOUT:   same: bool
# CHECK:STDOUT:   with_f32: complex64
# CHECK:STDOUT:   with_i16: complex64
# CHECK:STDOUT:   with_i32: complex128
# CHECK:STDOUT:   with_int: complex128
