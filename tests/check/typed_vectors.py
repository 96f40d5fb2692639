# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# CUDA vector types (numba-cuda's vector_types.py): `<dtype>x<n>` and CUDA's
# aliases, constructors from numbers and smaller vectors of the same base type,
# `.x .y .z .w` of the base type.
from numba import cuda


@cuda.jit("void(float32[:, ::1], int32[::1])")
def k(out, iout):
    i = cuda.grid(1)
    a = cuda.float32x2(1, i)
    b = cuda.float4(a, 2.5, out[i, 0])
    c = cuda.float32x4(cuda.float32x1(7), cuda.float32x3(b.y, b.z, b.w))
    first = b.x + c.x
    last = c.w
    v = cuda.int2(i, -i)
    vy = v.y
    d = cuda.double3(1, 2, 3)
    u = cuda.uchar4(1, 2, 3, 4)
    big = cuda.ulonglong1(5)
# CHECK:STDOUT: kernel k k__f32a2C_i32a1C void(float32[:, ::1], int32[::1])
# CHECK:STDOUT:   a: float32x2
# CHECK:STDOUT:   b: float32x4
# CHECK:STDOUT:   big: uint64x1
# CHECK:STDOUT:   c: float32x4
# CHECK:STDOUT:   d: float64x3
# CHECK:STDOUT:   first: float32
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   iout: array(int32, 1d, C)
# CHECK:STDOUT:   last: float32
# CHECK:STDOUT:   out: array(float32, 2d, C)
# CHECK:STDOUT:   u: uint8x4
# CHECK:STDOUT:   v: int32x2
# CHECK:STDOUT:   vy: int32
