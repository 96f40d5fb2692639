"""Row softmax: one 256-thread block per row, max then sum of exp in shared memory."""
import math

from numba import cuda, float32

TPB = 256


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def softmax_rows(x, out):
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    buf = cuda.shared.array(TPB, float32)
    n = x.shape[1]
    m = float32(-math.inf)
    for j in range(tid, n, cuda.blockDim.x):
        m = max(m, x[row, j])
    buf[tid] = m
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            buf[tid] = max(buf[tid], buf[tid + s])
        cuda.syncthreads()
        s //= 2
    rmax = buf[0]
    cuda.syncthreads()
    acc = float32(0.0)
    for j in range(tid, n, cuda.blockDim.x):
        acc += math.exp(x[row, j] - rmax)
    buf[tid] = acc
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    total = buf[0]
    for j in range(tid, n, cuda.blockDim.x):
        out[row, j] = math.exp(x[row, j] - rmax) / total
