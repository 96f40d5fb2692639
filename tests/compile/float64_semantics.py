"""numba types float32 * 1.1 as float64 (the literal is a Python float): the product
is computed in double precision and rounded once when stored."""
from numba import cuda, float32


@cuda.jit("void(float32[::1], float32[::1])")
def twice(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 1.1


@cuda.jit("void(float32[::1], float32[::1])")
def twice_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * float32(1.1)

# PTX-IN twice: cvt\.f64\.f32
# PTX-IN twice: (mul|fma)(\.rn)?\.f64
# PTX-IN twice: cvt\.rn\.f32\.f64
# PTX-NOT-IN twice_f32: \.f64
