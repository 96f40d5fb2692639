"""Kernels for alias versioning (docs/compile.md): each loop stores to one array argument
and loads from others, so each kernel gets a run-time overlap check and a no-alias body
whose loads run ahead of its stores. tests/gpu/cases/alias_cases.py calls them with
disjoint arrays (the no-alias body) and with overlapping views of one buffer (the
original body, which must keep NumPy's sequential semantics where a single thread runs
the whole loop)."""
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]


# Any layout: negative strides and strided views reach the kernel as they are.
@cuda.jit("void(float32, float32[:], float32[:], float32[:])")
def saxpy_any(a, x, y, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float64[:, :], float64[:, :], float64[:, :])")
def add2d(a, b, out):
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for j in range(a.shape[1]):
            out[i, j] = 0.5 * a[i, j] + b[i, j]
