import numpy as np
from numba import cuda

# CHECK:STDERR: fail_declare_device.py:[[@LINE+4]]:38: error: a `cuda.declare_device` signature needs a return type, e.g. `"float32(float32, float32)"` (or `void(...)`) [invalid-declare-device]
# CHECK:STDERR: no_return = cuda.declare_device("f", "(float32, float32)")
# CHECK:STDERR:                                      ^~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
no_return = cuda.declare_device("f", "(float32, float32)")
# CHECK:STDERR: fail_declare_device.py:[[@LINE+4]]:38: error: `array(float32, 1d, C)` cannot cross into a `cuda.declare_device` function: it takes numbers and `CPointer(T)`s and returns a number or `void`; pass an array's data as `CPointer(float32)` with `ffi.from_buffer(array)` [invalid-declare-device]
# CHECK:STDERR: array_arg = cuda.declare_device("g", "float32(float32[::1])")
# CHECK:STDERR:                                      ^~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
array_arg = cuda.declare_device("g", "float32(float32[::1])")
# CHECK:STDERR: fail_declare_device.py:[[@LINE+4]]:51: error: `abi` must be "numba" (the default) or "c" [invalid-declare-device]
# CHECK:STDERR: bad_kw = cuda.declare_device("h", "int32(int32)", abi="fortran")
# CHECK:STDERR:                                                   ^~~~~~~~~~~~~
# CHECK:STDERR:
bad_kw = cuda.declare_device("h", "int32(int32)", abi="fortran")
# CHECK:STDERR: fail_declare_device.py:[[@LINE+4]]:60: error: pykc cannot compute this `link=` path at compile time: write a string, or `os.path.join(os.path.dirname(__file__), "file.cu")` [invalid-link]
# CHECK:STDERR: not_a_path = cuda.declare_device("m", "int32(int32)", link=np.__file__)
# CHECK:STDERR:                                                            ^~~~~~~~~~~
# CHECK:STDERR:
not_a_path = cuda.declare_device("m", "int32(int32)", link=np.__file__)
# CHECK:STDERR: fail_declare_device.py:[[@LINE+4]]:53: error: `CPointer` takes a scalar type such as `float32` [invalid-signature]
# CHECK:STDERR: bad_type = cuda.declare_device("n", "int32(CPointer(float32[::1]))")
# CHECK:STDERR:                                                     ^
# CHECK:STDERR:
bad_type = cuda.declare_device("n", "int32(CPointer(float32[::1]))")


# CHECK:STDERR: fail_declare_device.py:[[@LINE+4]]:11: error: a kernel cannot take `CPointer(float32)`: pass an array and `ffi.from_buffer(array)` in the kernel [invalid-signature]
# CHECK:STDERR: @cuda.jit("void(CPointer(float32))")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(CPointer(float32))")
def takes_pointer(p):
    pass
