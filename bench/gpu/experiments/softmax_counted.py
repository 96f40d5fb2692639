"""Experiment (docs/BENCHMARKS.md): k04_softmax with each strided range() loop written
as a counted loop (trip count computed first, as numba lowers range), which LLVM then
unrolls at run time; the same math as bench/compile/kernels/k04_softmax.py."""
import math
from numba import cuda, float32

TPB = 256


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def softmax_rows(x, out):
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    buf = cuda.shared.array(TPB, float32)
    n = x.shape[1]
    bd = cuda.blockDim.x
    cnt = (n - tid + bd - 1) // bd if n > tid else 0
    m = float32(-math.inf)
    for c in range(cnt):
        m = max(m, x[row, tid + c * bd])
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
    for c in range(cnt):
        acc += math.exp(x[row, tid + c * bd] - rmax)
    buf[tid] = acc
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    total = buf[0]
    for c in range(cnt):
        j = tid + c * bd
        out[row, j] = math.exp(x[row, j] - rmax) / total
