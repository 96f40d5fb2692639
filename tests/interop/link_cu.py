# numba-cuda's documented example: declare_device with link=, a pointer through
# cffi's from_buffer, an int64 argument converted to the declared int32.
import os

import cffi
from numba import cuda

OPS = os.path.join(os.path.dirname(__file__), "inputs", "ops.cu")
mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link=OPS)
sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)", link=OPS)
ffi = cffi.FFI()


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def multiply(r, x, y):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = mul(x[i], y[i])


@cuda.jit("void(float32[::1], float32[::1])")
def reduce(result, array):
    result[0] = sum_reduce(ffi.from_buffer(array), len(array))
