import os

import cffi
from numba import cuda

OPS = os.path.join(os.path.dirname(__file__), "inputs", "ops.cu")
# ops.cu defines mul_f32(float*, float, float) and sum_reduce(float*, float*, int).
# CHECK:STDERR: fail_signature_mismatch.py:[[@LINE+5]]:7: error: `mul_f32` in `inputs/ops.cu` does not match this declaration: it takes 3 parameter(s), not 2 (the result pointer, then 1 argument(s)) [extern-signature]
# CHECK:STDERR: mul = cuda.declare_device("mul_f32", "float32(float32)", link=OPS)
# CHECK:STDERR:       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: pykc: note: numba's ABI expects `extern "C" __device__ int mul_f32(float* return_value, float)`
# CHECK:STDERR:
mul = cuda.declare_device("mul_f32", "float32(float32)", link=OPS)
# CHECK:STDERR: fail_signature_mismatch.py:[[@LINE+5]]:8: error: `sum_reduce` in `inputs/ops.cu` does not match this declaration: its parameter 3 is 4 bytes, not 8 [extern-signature]
# CHECK:STDERR: wide = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int64)", link=OPS)
# CHECK:STDERR:        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: pykc: note: numba's ABI expects `extern "C" __device__ int sum_reduce(float* return_value, float*, long long)`
# CHECK:STDERR:
wide = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int64)", link=OPS)
# abi="c" expects `float mul_f32(float, float)`.
as_c = cuda.declare_device("mul_f32", "float32(float32, float32)", abi="c", link=OPS)
# CHECK:STDERR: fail_signature_mismatch.py:[[@LINE+5]]:11: error: `not_in_ops` is declared here but no linked file defines it [undefined-extern]
# CHECK:STDERR: missing = cuda.declare_device("not_in_ops", "int32(int32)", link=OPS)
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: pykc: note: numba's ABI expects `extern "C" __device__ int not_in_ops(int* return_value, int)`
# CHECK:STDERR:
missing = cuda.declare_device("not_in_ops", "int32(int32)", link=OPS)
# abi="c" expects `float mul_f32(float, float)`.
# CHECK:STDERR: fail_signature_mismatch.py:[[@LINE+5]]:8: error: `mul_f32` in `inputs/ops.cu` does not match this declaration: it takes 3 parameter(s), not 2 [extern-signature]
# CHECK:STDERR: as_c = cuda.declare_device("mul_f32", "float32(float32, float32)", abi="c", link=OPS)
# CHECK:STDERR:        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: pykc: note: numba's ABI expects `extern "C" __device__ float mul_f32(float, float)`
# CHECK:STDERR:
as_c = cuda.declare_device("mul_f32", "float32(float32, float32)", abi="c", link=OPS)
ffi = cffi.FFI()


@cuda.jit("void(float32[::1], int32[::1])")
def k(x, y):
    x[0] = mul(x[0])
    x[1] = wide(ffi.from_buffer(x), 3)
    y[0] = missing(y[0])
    x[2] = as_c(x[0], x[1])
