# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


# CHECK:STDERR: fail_invalid_signature.py:[[@LINE+4]]:31: error: unknown type `flaot32` in signature [invalid-signature]
# CHECK:STDERR: @cuda.jit("void(float32[::1], flaot32)")
# CHECK:STDERR:                               ^~~~~~~
# CHECK:STDERR:
@cuda.jit("void(float32[::1], flaot32)")
def bad_name(x, y):
    pass


# CHECK:STDERR: fail_invalid_signature.py:[[@LINE+4]]:24: error: can only specify step 1 (`::1`) in the first or last dimension [invalid-signature]
# CHECK:STDERR: @cuda.jit("void(float32[:, ::1, :])")
# CHECK:STDERR:                        ^~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(float32[:, ::1, :])")
def bad_layout(x):
    pass


# CHECK:STDERR: fail_invalid_signature.py:[[@LINE+4]]:11: error: signature `void(float32[::1])` has 1 argument type(s), but `bad_arity` takes 2 [invalid-signature]
# CHECK:STDERR: @cuda.jit("void(float32[::1])")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(float32[::1])")
def bad_arity(x, y):
    pass


# CHECK:STDERR: fail_invalid_signature.py:[[@LINE+4]]:11: error: a kernel's signature must return `void`, found `float32` [invalid-signature]
# CHECK:STDERR: @cuda.jit("float32(float32)")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("float32(float32)")
def returns_value(x):
    pass


# CHECK:STDERR: fail_invalid_signature.py:[[@LINE+4]]:11: error: bfloat16 and the float8 types are supported in tile kernels (`@ct.kernel`) only [unsupported-construct]
# CHECK:STDERR: @cuda.jit("void(bfloat16)")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(bfloat16)")
def unsupported_type(x):
    pass
