"""A numba.cuda kernel file, as users write them: kernels beside host code."""
import math

import numpy as np
from numba import cuda

BLOCK = 256


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    # Grid-stride loop: any grid size covers any array length.
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float32[::1], float32[::1])")
def block_sum(x, partial):
    buf = cuda.shared.array(BLOCK, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else np.float32(0.0)
    cuda.syncthreads()
    step = BLOCK // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]


@cuda.jit(device=True)
def gelu(v):
    return 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))


@cuda.jit("void(float64[:, :], float64[:, :])")
def gelu_2d(x, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = gelu(x[i, j])


if __name__ == "__main__":
    n = 1 << 20
    x = np.random.rand(n).astype(np.float32)
    y = np.random.rand(n).astype(np.float32)
    out = np.empty_like(x)
    saxpy[(n + BLOCK - 1) // BLOCK, BLOCK](np.float32(2.0), x, y, out)
    print(f"max error: {np.abs(out - (2 * x + y)).max():.3g}")
