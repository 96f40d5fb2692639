"""2-D 5-point stencil (one explicit heat-equation step), borders copied."""
from numba import cuda, float32


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32)")
def stencil5(u, out, c):
    j, i = cuda.grid(2)
    n = u.shape[0]
    m = u.shape[1]
    if i >= 1 and i < n - 1 and j >= 1 and j < m - 1:
        out[i, j] = u[i, j] + c * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                                   - float32(4.0) * u[i, j])
    elif i < n and j < m:
        out[i, j] = u[i, j]
