"""`breakpoint()`: PTX `brkpt` in kernels built with debug=True (numba-cuda's lowering;
cuda-gdb stops there), nothing in the others."""
from numba import cuda


@cuda.jit("void(int64[::1])", debug=True, opt=False)
def stops(x):
    breakpoint()
    x[0] = 1


@cuda.jit("void(int64[::1])")
def runs(x):
    breakpoint()
    x[0] = 1

# PTX-IN stops: brkpt;
# PTX-NOT-IN runs: brkpt
