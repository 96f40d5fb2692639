"""cuda.cg.this_grid().sync(): a grid-wide barrier; the manifest marks the kernel
cooperative (the launcher must use cuLaunchCooperativeKernel)."""
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def rotate(x, out):
    g = cuda.cg.this_grid()
    n = x.shape[0]
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        x[i] = 2 * x[i]
    g.sync()
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        out[i] = x[(i + 1) % n]


@cuda.jit("void(float32[::1])")
def plain(x):
    x[0] = 1

# PTX-IN rotate: atom\.global\.add\.u32
# PTX-IN rotate: ld\.volatile\.global\.u32
# PTX-NOT-IN plain: atom
# MANIFEST: [k["cooperative"] for k in m["kernels"]] == [True, False]
