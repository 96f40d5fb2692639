"""numba idioms of real code (issue 21), third file: kernels made inside functions (kernel
factories, test functions and methods, as numba-cuda's own tests and users' factories write
them), compiled ahead of time by their qualified names with the factory's arguments given by
`-D`. tests/gpu/cases/api_cases9.py runs each kernel here and the one numba-cuda makes by
calling the same factory with the same arguments, on the same inputs, and wants the same bytes.

Compile: bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels9.py sm_90 <root>/api_kernels9
"""
# pykc-compile: --sig make_scaler.kernel(float64[::1],float64[::1]) -D factor=2.5
# pykc-compile: --sig make_mapper.<locals>.kernel(float64[::1],float64[::1]) -D fn=math.sin
# pykc-compile: --sig make_polynomial.kernel(float32[::1])
# pykc-compile: --sig TestNested.test_stencil.kernel(float32[:,::1],float32[:,::1])
# pykc-compile: --sig zero_d(float32[()],float32[::1])
import math

from numba import cuda

SCALE = 1.0


def make_scaler(factor):
    @cuda.jit
    def kernel(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * factor + SCALE
    return kernel


def make_mapper(fn):
    @cuda.jit
    def kernel(x, out):
        for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
            out[i] = fn(x[i])
    return kernel


def make_polynomial():
    SCALE = 0.5  # the kernel's, not the module's
    coeffs = (1.0, -2.0, 0.25)

    @cuda.jit(device=True)
    def horner(v):
        acc = 0.0
        for c in coeffs:
            acc = acc * v + c
        return acc * SCALE

    @cuda.jit
    def kernel(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = horner(x[i])
    return kernel


class TestNested:
    def test_stencil(self):
        W = 3

        @cuda.jit
        def kernel(a, out):
            i, j = cuda.grid(2)
            if i < a.shape[0] and j + W <= a.shape[1]:
                s = 0.0
                for k in range(W):
                    s += a[i, j + k]
                out[i, j] = s / W
        return kernel


@cuda.jit
def zero_d(x, out):
    # A 0-d array (`float32[()]` in --sig): read and written at `()`.
    out[0] = x[()] * 2
    x[()] = x[()] + 1
