import os

import cffi
from numba import cuda

OPS = os.path.join(os.path.dirname(__file__), "inputs", "ops.cu")
mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link=OPS)
sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)", link=OPS)
ffi = cffi.FFI()


@cuda.jit("void(float32[::1], int32[::1])")
def k(x, y):
    # CHECK:STDERR: fail_extern_calls.py:[[@LINE+4]]:12: error: `mul` takes 2 arguments, found 1 [wrong-arg-count]
    # CHECK:STDERR:     x[0] = mul(x[0])
    # CHECK:STDERR:            ^~~~~~~~~
    # CHECK:STDERR:
    x[0] = mul(x[0])
    # CHECK:STDERR: fail_extern_calls.py:[[@LINE+4]]:23: error: argument 1 of `sum_reduce` must be `CPointer(float32)`, found `array(float32, 1d, C)` (pass `ffi.from_buffer(x)`) [invalid-call]
    # CHECK:STDERR:     x[1] = sum_reduce(x, 3)
    # CHECK:STDERR:                       ^
    # CHECK:STDERR:
    x[1] = sum_reduce(x, 3)
    # CHECK:STDERR: fail_extern_calls.py:[[@LINE+4]]:23: error: argument 1 of `sum_reduce` must be `CPointer(float32)`, found `CPointer(int32)` [invalid-call]
    # CHECK:STDERR:     x[2] = sum_reduce(ffi.from_buffer(y), 3)
    # CHECK:STDERR:                       ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[2] = sum_reduce(ffi.from_buffer(y), 3)
    # CHECK:STDERR: fail_extern_calls.py:[[@LINE+4]]:12: error: `mul` is a `cuda.declare_device` function: pass its arguments by position [invalid-call]
    # CHECK:STDERR:     x[3] = mul(x[0], y=x[1])
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[3] = mul(x[0], y=x[1])
    # CHECK:STDERR: fail_extern_calls.py:[[@LINE+4]]:12: error: `ffi.from_buffer` takes one array [invalid-call]
    # CHECK:STDERR:     x[4] = ffi.from_buffer(x[0])
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[4] = ffi.from_buffer(x[0])
