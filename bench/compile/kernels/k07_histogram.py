"""256-bin histogram: grid-stride, shared-memory atomics, one global atomic per bin and block."""
from numba import cuda, int32

NBINS = 256


@cuda.jit("void(int32[::1], int32[::1])")
def histogram(x, bins):
    sh = cuda.shared.array(NBINS, int32)
    tid = cuda.threadIdx.x
    for b in range(tid, NBINS, cuda.blockDim.x):
        sh[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        cuda.atomic.add(sh, x[i] & (NBINS - 1), 1)
    cuda.syncthreads()
    for b in range(tid, NBINS, cuda.blockDim.x):
        cuda.atomic.add(bins, b, sh[b])
