# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Complex module constants and CuPy's scalar constructors (issue 21: PyLops'
`TWO_PI_MINUS = cp.float32(-2.0 * pi)`, `IMG = cp.complex64(1j)`): numba freezes them with
their types (complex64, float32; a Python complex is complex128), and kernels compute
with them by numba's rules (complex64 * float32 is complex64)."""
from math import pi

import cupy as cp
import numpy as np
from numba import cuda

TWO_PI_MINUS = cp.float32(-2.0 * pi)
IMG = cp.complex64(1j)
NP_IMG = np.complex64(1j)
WIDE = np.complex128(2)
J = 1j
Z = 2 - 3j
HALF = Z / 2
ROOT = (1 + 1j) * (1 - 1j)


@cuda.jit("void(complex128[::1], float32[::1])")
def radon(y, f):
    i = cuda.grid(1)
    s, c = cuda.libdevice.sincosf(TWO_PI_MINUS * f[i])
    y[i] += c + IMG * s
    a = IMG
    b = NP_IMG * f[i]
    d = J * f[i]
    e = WIDE + Z
    # CHECK:STDERR: complex_constants.py:[[@LINE+7]]:9: warning: float64 arithmetic in a kernel whose arrays are float32: `float64 + float64` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     g = HALF.real + ROOT.imag
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR: complex_constants.py:[[@LINE+4]]:9: note: `HALF.real` is `float64`; convert it with `float32(...)` to compute in float32
    # CHECK:STDERR:     g = HALF.real + ROOT.imag
    # CHECK:STDERR:         ^~~~~~~~~
    # CHECK:STDERR:
    g = HALF.real + ROOT.imag
    h = -IMG
    y[i] += a + b + d + e + g + h
# CHECK:STDOUT: kernel radon radon__c128a1C_f32a1C void(complex128[::1], float32[::1])
# CHECK:STDOUT:   a: complex64
# CHECK:STDOUT:   b: complex64
# CHECK:STDOUT:   c: float32
# CHECK:STDOUT:   d: complex128
# CHECK:STDOUT:   e: complex128
# CHECK:STDOUT:   f: array(float32, 1d, C)
# CHECK:STDOUT:   g: float64
# CHECK:STDOUT:   h: complex64
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   s: float32
# CHECK:STDOUT:   y: array(complex128, 1d, C)
