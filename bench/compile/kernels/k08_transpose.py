"""Matrix transpose through a padded 32x33 shared-memory tile (block 32 x 8)."""
from numba import cuda, float32

TD = 32
BR = 8
TDP = TD + 1  # numba types (TD, TD + 1) as a run-time tuple; a module constant is a literal


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def transpose(a, out):
    tile = cuda.shared.array((TD, TDP), float32)
    bx = cuda.blockIdx.x * TD
    by = cuda.blockIdx.y * TD
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows = a.shape[0]
    cols = a.shape[1]
    x = bx + tx
    for k in range(0, TD, BR):
        y = by + ty + k
        if y < rows and x < cols:
            tile[ty + k, tx] = a[y, x]
    cuda.syncthreads()
    x = by + tx
    for k in range(0, TD, BR):
        y = bx + ty + k
        if y < cols and x < rows:
            out[y, x] = tile[tx, ty + k]
