# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Signatures as numba type objects (types.CPointer, types.voidptr), CPointer
# variables from ffi.from_buffer, and a Python device function taking one.
from cffi import FFI
from numba import cuda, float32, int32, types

scale = cuda.declare_device("scale", float32(float32, int32))
first = cuda.declare_device("first", types.float32(types.CPointer(types.float32)))
touch = cuda.declare_device("touch", types.void(types.voidptr, types.int64))
ffi = FFI()


@cuda.jit(device=True)
def head(p):
    return first(p)


@cuda.jit("void(float32[::1])")
def k(x):
    p = ffi.from_buffer(x)
    touch(p, x.size)
    x[0] = scale(head(p), 2)
# CHECK:STDOUT: kernel k k__f32a1C void(float32[::1])
# CHECK:STDOUT:   p: CPointer(float32)
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device head pykc_device__head__pf32 float32(CPointer(float32))
# CHECK:STDOUT:   p: CPointer(float32)
