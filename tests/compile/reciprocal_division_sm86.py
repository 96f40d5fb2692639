# ARGS: --arch sm_86
# The same loop-invariant division on sm_86, whose float64 runs at 1/64 of float32:
# div.rn.f32 per element, no float64 (backend/passes/reciprocal_division.h).
# PTX: div\.rn\.f32
# PTX-NOT: \.f64
from numba import cuda


@cuda.jit("void(float32[:, ::1], float32[::1])")
def scale_rows(x, s):
    row = cuda.blockIdx.x
    d = s[row]
    for j in range(cuda.threadIdx.x, x.shape[1], cuda.blockDim.x):
        x[row, j] = x[row, j] / d
