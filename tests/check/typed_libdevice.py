# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# numba's types of cuda.libdevice functions (libdevicefuncs.py): output pointers
# join the result tuple after the result; unsigned functions are typed signed;
# float2half_rn is int16.
from numba import cuda
from numba.cuda import libdevice
from numba.cuda.libdevice import sad


@cuda.jit("void(float32[::1], float64[::1], int64[::1])")
def k(f, d, n):
    fr = libdevice.frexp(d[0])
    frf = libdevice.frexpf(f[0])
    mf = cuda.libdevice.modff(f[0])
    sc = libdevice.sincospif(f[0])
    rq = libdevice.remquo(d[0], 2)
    half = libdevice.float2half_rn(f[0])
    back = libdevice.half2float(half)
    s = sad(n[0], 2, 3)
    um = libdevice.umul64hi(n[0], n[1])
    fast = libdevice.fast_sinf(d[0])
    rounded = libdevice.double2float_ru(f[0])
    bits = libdevice.double_as_longlong(d[0])
    nb = libdevice.popcll(n[0])
    ok = libdevice.isnand(True)
# CHECK:STDOUT: kernel k k__f32a1C_f64a1C_i64a1C void(float32[::1], float64[::1], int64[::1])
# CHECK:STDOUT:   back: float32
# CHECK:STDOUT:   bits: int64
# CHECK:STDOUT:   d: array(float64, 1d, C)
# CHECK:STDOUT:   f: array(float32, 1d, C)
# CHECK:STDOUT:   fast: float32
# CHECK:STDOUT:   fr: Tuple(float64, int32)
# CHECK:STDOUT:   frf: Tuple(float32, int32)
# CHECK:STDOUT:   half: int16
# CHECK:STDOUT:   mf: UniTuple(float32 x 2)
# CHECK:STDOUT:   n: array(int64, 1d, C)
# CHECK:STDOUT:   nb: int32
# CHECK:STDOUT:   ok: int32
# CHECK:STDOUT:   rounded: float32
# CHECK:STDOUT:   rq: Tuple(float64, int32)
# CHECK:STDOUT:   s: int32
# CHECK:STDOUT:   sc: UniTuple(float32 x 2)
# CHECK:STDOUT:   um: int64
