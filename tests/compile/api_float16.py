"""float16 is native half arithmetic on sm_90 (add/mul/fma .f16; a*b+c contracts to
fma.rn.f16), 16-bit parameters and loads; math and cuda.fp16 transcendental
functions go through float32 libdevice and round back."""
import math

from numba import cuda


@cuda.jit("void(float16[::1], float16)")
def k(h, s):
    i = cuda.grid(1)
    h[i] = h[i] * s + h[i + 1]
    h[i + 2] = cuda.fp16.hsin(h[i]) + math.sqrt(h[i + 3])

# LL: define ptx_kernel void @k__f16a1C_f16\(ptr %h\.0, i64 %h\.1, i64 %h\.2, half %s\)
# PTX-IN k: ld\.param\.b16
# PTX-IN k: fma\.rn\.f16
# PTX-IN k: cvt\.rn\.f16\.f32
# PTX-IN k: ld\.global\.b16
