# ARGS: --diag-kinds compile %s --phase=check
# Vector constructors: element counts, mixed base types, attributes.
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(out):
    # CHECK:STDERR: fail_vectors.py:[[@LINE+4]]:5: error: `cuda.float32x4` needs 4 elements, found 3 [invalid-call]
    # CHECK:STDERR:     cuda.float32x4(1, 2, 3)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.float32x4(1, 2, 3)
    # CHECK:STDERR: fail_vectors.py:[[@LINE+4]]:20: error: `cuda.float32x2` takes numbers and `float32` vectors, found `int32x2` [invalid-call]
    # CHECK:STDERR:     cuda.float32x2(cuda.int2(1, 2))
    # CHECK:STDERR:                    ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.float32x2(cuda.int2(1, 2))
    v = cuda.float2(1, 2)
    # CHECK:STDERR: fail_vectors.py:[[@LINE+4]]:14: error: `float32x2` has no attribute `z` [unknown-attribute]
    # CHECK:STDERR:     out[0] = v.z
    # CHECK:STDERR:              ^~~
    # CHECK:STDERR:
    out[0] = v.z
    # CHECK:STDERR: fail_vectors.py:[[@LINE+4]]:5: error: pass the arguments of `cuda.float3` by position [invalid-call]
    # CHECK:STDERR:     cuda.float3(x=1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.float3(x=1)
