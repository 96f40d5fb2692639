"""Kernels for `pykc header` (tests/header/header_test.py): every kind of
parameter docs/ABI.md passes, the launch flags, a kernel with two signatures
and one with none."""
import numpy as np
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


# Scalars of every width, complex (two parameters), arrays of each layout and
# ndim, a tuple; a parameter named after a C keyword.
@cuda.jit("void(boolean, int8, uint16, float16, float64, complex64, complex128, "
          "float64[:, ::1], int32[::1, :], int64[:, :, :], Tuple((int32, float64, UniTuple(int64, 2))), "
          "float32[::1])")
def mixed(flag, small, mid, half, big, c, z, grid2, fort, any3, t, double):
    if flag:
        double[0] = (small + mid + float(half) + big + c.real + z.imag + grid2[0, 0] + fort[0, 0]
                     + any3[0, 0, 0] + t[0] + t[1] + t[2][1])


# Two signatures: two entries, no short alias.
@cuda.jit(["void(float32[::1])", "void(float64[::1])"])
def twice(x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        x[i] *= 2


@cuda.jit("void(int64[::1])")
def dynamic(out):
    buf = cuda.shared.array(0, dtype=np.int64)
    buf[cuda.threadIdx.x] = cuda.threadIdx.x
    cuda.syncthreads()
    out[cuda.grid(1)] = buf[0]


@cuda.jit("void(int32[::1])")
def cooperative(x):
    g = cuda.cg.this_grid()
    x[cuda.grid(1)] = 1
    g.sync()


@cuda.jit("void()")
def nothing():
    pass
