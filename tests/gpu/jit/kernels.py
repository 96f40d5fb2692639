"""Kernels for tests/gpu/jit/run_jit_tests.py: numba.cuda code as numba users write it,
imported through `from pykc import cuda` (and, in run_numba_program.py, as `numba`)."""
import math

import numpy as np

from pykc import cuda
from pykc.cuda.random import xoroshiro128p_uniform_float32
from pykc.types import float32, float64, int32, void

from jit_helpers import soft

TPB = 128
SCALE = np.float32(0.5)


@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


@cuda.jit("void(float32[::1], float32)")
def scale_eager(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit
def clamp_all(x, lo, hi):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = clamp(x[i], lo, hi)


def axpy_py(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


axpy = cuda.jit(axpy_py)
axpy_f32 = cuda.jit(void(float32, float32[::1], float32[::1]))(axpy_py)


@cuda.jit
def transpose2d(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[j, i] = a[i, j]


@cuda.jit
def block_sum(x, out):
    buf = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, buf[0])


@cuda.jit
def scaled_sin(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.sin(x[i]) * SCALE


@cuda.jit
def count_into(n, out):
    i = cuda.grid(1)
    if i < n:
        cuda.atomic.add(out, 0, 1)


@cuda.jit
def tuple_arg(t, out):
    out[0] = t[0] + t[1]


@cuda.jit
def draw_uniform(states, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = xoroshiro128p_uniform_float32(states, i)


@cuda.jit
def record_sum(recs, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = recs[i].x * recs[i].n


@cuda.jit
def soften(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = soft(x[i])


@cuda.jit
def zip_enumerate(x, y, error):
    """enumerate inside zip, with and without a start, beside a range."""
    count = 0
    for (i, xv), yv in zip(enumerate(x), y):
        if i != count or xv != x[i] or yv != y[i]:
            error[0] = 1
        count += 1
    for (j, a), (m, b), r in zip(enumerate(x, 5), enumerate(y), range(3, 100)):
        if j - 5 != m or r != m + 3 or a != x[m] or b != y[m]:
            error[0] = 2
        error[1] += 1
    if count != len(x):
        error[0] = 3


@cuda.jit
def numpy_ufuncs(x, out):
    """NumPy ufuncs on scalars, as numba-cuda compiles them."""
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = np.sin(v)
        out[i, 1] = np.arcsin(v * 0.5)
        out[i, 2] = np.exp(v)
        out[i, 3] = np.sqrt(v + 2)
        out[i, 4] = np.floor(v * 3)
        out[i, 5] = np.arctan2(v, 0.5)
        out[i, 6] = np.log1p(v + 1)
        out[i, 7] = np.deg2rad(v)
