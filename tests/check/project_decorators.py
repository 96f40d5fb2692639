# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig=scale(float32[::1],float32) --sig=shift(float64[::1],int64)
"""Decorators a project defines around numba.cuda.jit in its own module (fbpic's
`@compile_cupy`): one that only applies `cuda.jit` to the function, or a class that stores
the function and only passes it to `cuda.jit` (under a module-level `if` it cannot fold),
is `cuda.jit`: the kernels compile with `--sig`."""
from numba import cuda

from .sibling.jit_wrappers import compile_gpu, gpu_kernel


@gpu_kernel
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a


@compile_gpu
def shift(x, n):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += n
# CHECK:STDOUT: kernel scale scale__f32a1C_f32 void(float32[::1], float32)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel shift shift__f64a1C_i64 void(float64[::1], int64)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   x: array(float64, 1d, C)
