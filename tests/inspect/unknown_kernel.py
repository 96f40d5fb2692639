# ARGS: --diag-kinds inspect %s::gelu --emit types
# EXIT: 2
"""An unknown kernel: a usage error that lists the kernels (exit status 2)."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDERR: pykc: error: `gelu` is not a kernel of `unknown_kernel.py`; its kernels: scale, fill
