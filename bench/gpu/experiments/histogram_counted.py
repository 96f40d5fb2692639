"""Experiment (docs/BENCHMARKS.md): k07_histogram with the grid-stride range() loop written
as a counted loop (trip count computed first, as numba lowers range), which LLVM then
unrolls at run time; the same math as bench/compile/kernels/k07_histogram.py."""
from numba import cuda, int32

NBINS = 256


@cuda.jit("void(int32[::1], int32[::1])")
def histogram(x, bins):
    sh = cuda.shared.array(NBINS, int32)
    tid = cuda.threadIdx.x
    for b in range(tid, NBINS, cuda.blockDim.x):
        sh[b] = 0
    cuda.syncthreads()
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    n = x.size
    cnt = (n - start + stride - 1) // stride if n > start else 0
    for c in range(cnt):
        cuda.atomic.add(sh, x[start + c * stride] & (NBINS - 1), 1)
    cuda.syncthreads()
    for b in range(tid, NBINS, cuda.blockDim.x):
        cuda.atomic.add(bins, b, sh[b])
