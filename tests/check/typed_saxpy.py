# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Typed dump of the three example kernels: numba's typing of every variable."""
import math

import numpy as np
from numba import cuda

BLOCK = 256


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float32[::1], float32[::1])")
def block_sum(x, partial):
    buf = cuda.shared.array(BLOCK, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else np.float32(0.0)
    cuda.syncthreads()
    step = BLOCK // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]


@cuda.jit(device=True)
def gelu(v):
    return 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))


@cuda.jit("void(float64[:, :], float64[:, :])")
def gelu_2d(x, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = gelu(x[i, j])
# CHECK:STDOUT: kernel saxpy saxpy__f32_f32a1C_f32a1C_f32a1C void(float32, float32[::1], float32[::1], float32[::1])
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   start: int64
# CHECK:STDOUT:   stride: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT: kernel block_sum block_sum__f32a1C_f32a1C void(float32[::1], float32[::1])
# CHECK:STDOUT:   buf: array(float32, 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   partial: array(float32, 1d, C)
# CHECK:STDOUT:   step: int64
# CHECK:STDOUT:   tid: int32
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel gelu_2d gelu_2d__f64a2A_f64a2A void(float64[:, :], float64[:, :])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   j: int64
# CHECK:STDOUT:   out: array(float64, 2d, A)
# CHECK:STDOUT:   x: array(float64, 2d, A)
# CHECK:STDOUT: device gelu pykc_device__gelu__f64 float64(float64)
# CHECK:STDOUT:   v: float64
