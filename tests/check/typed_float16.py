# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# numba-cuda's float16 typing (checked with numba.cuda.compile_ptx): + - * / stay
# float16; with float32 or int16 it is float32, with int64 or a float literal float64,
# with bool float16; `//` and `**` compute in float32; comparisons are bool;
# cuda.fp16 functions return float16 (comparisons bool).
from numba import cuda
from numba.types import float16


@cuda.jit("void(float16[::1], float32[::1], int32[::1], int16[::1])")
def k(h, f, n, b):
    same = h[0] + h[1]
    with_f32 = h[0] * f[0]
    with_lit = h[0] + 1
    with_i32 = h[0] + n[0]
    with_float = h[0] + 1.5
    neg = -h[0]
    less = h[0] < h[1]
    magnitude = abs(h[0])
    added = cuda.fp16.hadd(h[0], h[1])
    sine = cuda.fp16.hsin(h[0])
    biggest = cuda.fp16.hmax(h[0], h[1])
    equal = cuda.fp16.heq(h[0], h[1])
    cast = float16(f[0])
    widened = float(h[0])
    quotient = h[0] / h[1]
    floor_q = h[0] // h[1]
    power = h[0] ** 2
    fused = cuda.fp16.hfma(h[0], h[1], h[0])
    larger = max(h[0], h[1])
    truncated = int(h[0])
    with_i16 = h[0] + b[0]
    with_bool = h[0] + True
# CHECK:STDOUT: kernel k k__f16a1C_f32a1C_i32a1C_i16a1C void(float16[::1], float32[::1], int32[::1], int16[::1])
# CHECK:STDOUT:   added: float16
# CHECK:STDOUT:   b: array(int16, 1d, C)
# CHECK:STDOUT:   biggest: float16
# CHECK:STDOUT:   cast: float16
# CHECK:STDOUT:   equal: bool
# CHECK:STDOUT:   f: array(float32, 1d, C)
# CHECK:STDOUT:   floor_q: float32
# CHECK:STDOUT:   fused: float16
# CHECK:STDOUT:   h: array(float16, 1d, C)
# CHECK:STDOUT:   larger: float16
# CHECK:STDOUT:   less: bool
# CHECK:STDOUT:   magnitude: float16
# CHECK:STDOUT:   n: array(int32, 1d, C)
# CHECK:STDOUT:   neg: float16
# CHECK:STDOUT:   power: float32
# CHECK:STDOUT:   quotient: float16
# CHECK:STDOUT:   same: float16
# CHECK:STDOUT:   sine: float16
# CHECK:STDOUT:   truncated: int64
# CHECK:STDOUT:   widened: float16
# CHECK:STDOUT:   with_bool: float16
# CHECK:STDOUT:   with_f32: float32
# CHECK:STDOUT:   with_float: float64
# CHECK:STDOUT:   with_i16: float32
# CHECK:STDOUT:   with_i32: float64
# CHECK:STDOUT:   with_lit: float64
