"""Warp-shuffle reductions (5 kernels): grid-stride accumulation, shfl_down tree,
one atomic per warp. Compile benchmark only: the full-mask shuffles and ballot assume
every lane of a warp runs the same number of loop iterations (x.size a multiple of the
grid's thread count)."""
from numba import cuda, float32, float64, int32

FULL = 0xFFFFFFFF


@cuda.jit(device=True)
def warp_sum_f32(v):
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(FULL, v, offset)
        offset //= 2
    return v


@cuda.jit("void(float32[::1], float32[::1])")
def reduce_sum(x, total):
    acc = float32(0.0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    acc = warp_sum_f32(acc)
    if cuda.laneid == 0:
        cuda.atomic.add(total, 0, acc)


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def dot(x, y, total):
    acc = float32(0.0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i] * y[i]
    acc = warp_sum_f32(acc)
    if cuda.laneid == 0:
        cuda.atomic.add(total, 0, acc)


@cuda.jit("void(float64[::1], float64[::1])")
def norm2_sq(x, total):
    acc = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i] * x[i]
    offset = 16
    while offset > 0:
        acc += cuda.shfl_xor_sync(FULL, acc, offset)
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(total, 0, acc)


@cuda.jit("void(int32[::1], int32[::1])")
def max_int(x, result):
    m = int32(-2147483647)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        m = max(m, x[i])
    offset = 16
    while offset > 0:
        m = max(m, cuda.shfl_down_sync(FULL, m, offset))
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.max(result, 0, m)


@cuda.jit("void(float32[::1], int32[::1])")
def count_positive(x, count):
    c = int32(0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        c += cuda.popc(cuda.ballot_sync(FULL, x[i] > 0))
    if cuda.laneid == 0:
        cuda.atomic.add(count, 0, c)
