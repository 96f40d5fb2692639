"""complex64/complex128: {re, im} structs in registers, two floats per scalar argument
(docs/ABI.md), 8- and 16-byte elements loaded with their parts' alignment; division is
CPython's scaled algorithm; abs is hypot; cmath through libdevice."""
import cmath

from numba import cuda


@cuda.jit("void(complex64[::1], complex128[::1], complex64)")
def k(a, b, c):
    i = cuda.grid(1)
    a[i] = a[i] * c / a[i + 1]
    b[i] = cmath.exp(b[i]) + abs(b[i + 1])

# LL: define ptx_kernel void @k__c64a1C_c128a1C_c64\(ptr %a\.0, i64 %a\.1, i64 %a\.2, ptr %b\.0, i64 %b\.1, i64 %b\.2, float %c\.0, float %c\.1\)
# LL: load \{ float, float \}, ptr %\d+, align 4
# LL: load \{ double, double \}, ptr %\d+, align 8
# PTX-IN k: ld\.global\.(v2\.)?f32
# PTX-IN k: ld\.global\.(v2\.)?f64
# MANIFEST: m["kernels"][0]["params"][2]["dtype"] == "complex64"
