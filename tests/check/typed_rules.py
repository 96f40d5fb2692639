# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""numba's typing rules, as measured with numba-cuda 0.30.4's compile_ptx."""
from numba import cuda, int32, uint32, int64, uint64, float32
import math


@cuda.jit("void(int32, uint32, int64, uint64, float32, boolean)")
def rules(i32, u32, i64, u64, f32, b):
    add_i32 = i32 + i32
    add_u32 = u32 + u32
    mixed_sign = i64 + u64
    unify_sign = max(i64, u64)
    f32_i32 = f32 + i32
    f32_lit = f32 * 2.0
    f32_int_lit = f32 * 2
    div = i32 / i32
    fdiv = i32 // i32
    powi = f32 ** 3
    powf = i32 ** 0.5
    bools = b + b
    band = b & b
    neg = -u32
    inv = ~b
    floor = math.floor(f32)
    sqrt_int = math.sqrt(i32)
    shifted = u32 << 2
    cmp = 1 < i32 <= 5
    either = i32 or f32
    acc = 0
    for k in range(i32):
        acc += f32
    t = (i32, f32)
    first = t[0]
# CHECK:STDOUT: kernel rules rules__i32_u32_i64_u64_f32_b1 void(int32, uint32, int64, uint64, float32, boolean)
# CHECK:STDOUT:   acc: float64
# CHECK:STDOUT:   add_i32: int64
# CHECK:STDOUT:   add_u32: uint64
# CHECK:STDOUT:   b: bool
# CHECK:STDOUT:   band: bool
# CHECK:STDOUT:   bools: int64
# CHECK:STDOUT:   cmp: bool
# CHECK:STDOUT:   div: float64
# CHECK:STDOUT:   either: float64
# CHECK:STDOUT:   f32: float32
# CHECK:STDOUT:   f32_i32: float64
# CHECK:STDOUT:   f32_int_lit: float64
# CHECK:STDOUT:   f32_lit: float64
# CHECK:STDOUT:   fdiv: int64
# CHECK:STDOUT:   first: int32
# CHECK:STDOUT:   floor: float32
# CHECK:STDOUT:   i32: int32
# CHECK:STDOUT:   i64: int64
# CHECK:STDOUT:   inv: bool
# CHECK:STDOUT:   k: int32
# CHECK:STDOUT:   mixed_sign: int64
# CHECK:STDOUT:   neg: uint64
# CHECK:STDOUT:   powf: float64
# CHECK:STDOUT:   powi: float32
# CHECK:STDOUT:   shifted: uint64
# CHECK:STDOUT:   sqrt_int: float64
# CHECK:STDOUT:   t: Tuple(int32, float32)
# CHECK:STDOUT:   u32: uint32
# CHECK:STDOUT:   u64: uint64
# CHECK:STDOUT:   unify_sign: float64
