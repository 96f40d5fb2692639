# ARGS: --diag-kinds compile %s --phase=check
"""`arr.dtype` is a dtype value, which numba-cuda cannot call (seen on the H200: "No type
info available for dtype(float32) as a callable"); pykc says so instead of converting."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def cast_with_dtype(acts):
    # CHECK:STDERR: fail_array_dtype.py:[[@LINE+4]]:15: error: `acts.dtype` is a dtype, which numba cannot call: convert with the element type (`float32(...)`) [unsupported-construct]
    # CHECK:STDERR:     acts[0] = acts.dtype(25)
    # CHECK:STDERR:               ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    acts[0] = acts.dtype(25)
