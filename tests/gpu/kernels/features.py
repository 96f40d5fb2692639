"""Loader features: 2-D strided ('A') arrays, int32/bool/int64 scalars, several signatures,
dynamic shared memory, a cooperative (grid-synchronising) kernel.
Compile: pykc compile tests/gpu/kernels/features.py --arch sm_90 -o <root>/features"""
from numba import cuda


@cuda.jit("void(float64[:, :], float64[:, :], float64, int32, boolean)")
def axpby2d(x, out, alpha, beta, negate):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        v = alpha * x[i, j] + beta * out[i, j]
        out[i, j] = -v if negate else v


@cuda.jit(["void(float32[::1], float32)", "void(float64[::1], float64)"])
def scale(x, s):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        x[i] *= s


@cuda.jit("void(int64[::1], int64)")
def iota64(out, base):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = base + i


@cuda.jit("void(float32[::1], float32[::1], int64)")
def block_reverse(x, out, m):
    # Each block reverses one chunk of m elements through dynamic shared memory.
    sm = cuda.shared.array(0, dtype="float32")
    base = cuda.blockIdx.x * m
    for k in range(cuda.threadIdx.x, m, cuda.blockDim.x):
        sm[k] = x[base + k]
    cuda.syncthreads()
    for k in range(cuda.threadIdx.x, m, cuda.blockDim.x):
        out[base + k] = sm[m - 1 - k]


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def rotate_grid_sync(x, tmp, out):
    # Needs a cooperative launch: reads values other blocks wrote before the grid sync.
    n = x.shape[0]
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        tmp[i] = 2.0 * x[i]
    cuda.cg.this_grid().sync()
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        out[i] = tmp[(i + 1) % n]
