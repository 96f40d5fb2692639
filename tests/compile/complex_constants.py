"""Complex module constants are frozen into the kernel (PyLops' `IMG = cp.complex64(1j)`):
the imaginary unit is a constant of the arithmetic, nothing is loaded."""
import cupy as cp
from numba import cuda

IMG = cp.complex64(1j)
Z = 2 - 3j


@cuda.jit("void(complex64[::1], complex128[::1], float32[::1])")
def k(a, b, s):
    a[0] = IMG * s[0]
    b[0] = Z

# LL: store \{ double, double \} \{ double 2\.000000e\+00, double -3\.000000e\+00 \}
