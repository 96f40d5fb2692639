"""Block sum: one partial sum per 256-thread block, tree reduction in shared memory."""
import numpy as np
from numba import cuda

TPB = 256


@cuda.jit("void(float32[::1], float32[::1])")
def block_sum(x, partial):
    buf = cuda.shared.array(TPB, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else np.float32(0.0)
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]
