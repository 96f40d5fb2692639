"""A larger kernel file: 20 kernels and 3 device functions, the sort of module a
project accumulates (elementwise, 2-D and 3-D, reductions, scans, local arrays)."""
import math

import numpy as np
from numba import cuda, float32, float64, int32, int64, uint32

TPB = 256
WIN = 8
ALPHA = 0.01


@cuda.jit(device=True)
def clamp(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


@cuda.jit(device=True)
def gelu(v):
    return float32(0.5) * v * (float32(1.0) + math.tanh(float32(0.7978845608) * (v + float32(0.044715) * v * v * v)))


@cuda.jit(device=True)
def sigmoid(v):
    return float32(1.0) / (float32(1.0) + math.exp(-v))


@cuda.jit("void(float32[::1], float32[::1])")
def relu(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i]
        out[i] = v if v > float32(0.0) else float32(0.0)


@cuda.jit("void(float32[::1], float32[::1])")
def leaky_relu(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i]
        out[i] = v if v > float32(0.0) else v * float32(ALPHA)


@cuda.jit("void(float32[::1], float32[::1])")
def sigmoid_k(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = sigmoid(x[i])


@cuda.jit("void(float32[::1], float32[::1])")
def gelu_k(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = gelu(x[i])


@cuda.jit("void(float32, float32[::1], float32, float32[::1], float32[::1])")
def axpby(a, x, b, y, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + b * y[i]


@cuda.jit("void(float32[::1], float32, float32, float32[::1])")
def clamp_k(x, lo, hi, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = clamp(x[i], lo, hi)


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1])")
def fma3(a, b, c, out):
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        out[i] = a[i] * b[i] + c[i]


@cuda.jit("void(float64[::1], float64, float64[::1])")
def exp_scale(x, s, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = math.exp(x[i] * s) - 1.0


@cuda.jit("void(float64[::1], float64[::1])")
def sqrt_log(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = abs(x[i])
        out[i] = math.sqrt(v) + math.log1p(v)


@cuda.jit("void(float64[::1], float64[::1], float64[::1])")
def horner(x, coef, out):
    n = coef.size
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i]
        acc = 0.0
        for k in range(n):
            acc = acc * v + coef[k]
        out[i] = acc


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def add_2d(a, b, out):
    j, i = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + b[i, j]


@cuda.jit("void(float32[:, ::1], float32[::1], float32[:, ::1])")
def scale_rows(a, s, out):
    j, i = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] * s[i]


@cuda.jit("void(float32[:, ::1], float32[::1])")
def col_sum(a, out):
    j = cuda.grid(1)
    if j < a.shape[1]:
        acc = float32(0.0)
        for i in range(a.shape[0]):
            acc += a[i, j]
        out[j] = acc


@cuda.jit("void(float32[:, ::1], float32[::1])")
def row_sum(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        acc = float32(0.0)
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc


@cuda.jit("void(float32[:, ::1], float32[::1], float32[::1])")
def mat_vec(a, x, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        acc = float32(0.0)
        for j in range(a.shape[1]):
            acc += a[i, j] * x[j]
        out[i] = acc


@cuda.jit("void(float64[:, :, ::1], float64[:, :, ::1], float64[:, :, ::1])")
def add_3d(a, b, out):
    k, j, i = cuda.grid(3)
    if i < out.shape[0] and j < out.shape[1] and k < out.shape[2]:
        out[i, j, k] = a[i, j, k] + 2.0 * b[i, j, k]


@cuda.jit("void(float32[::1], float32[::1])")
def window_mean(x, out):
    i = cuda.grid(1)
    if i + WIN <= x.size:
        w = cuda.local.array(WIN, float32)
        for k in range(WIN):
            w[k] = x[i + k]
        s = float32(0.0)
        for k in range(WIN):
            s += w[k]
        out[i] = s / float32(WIN)


@cuda.jit("void(uint32[::1], uint32[::1])")
def hash_mix(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        h = x[i]
        h ^= h >> uint32(16)
        h = uint32(h * uint32(0x85EBCA6B))
        h ^= h >> uint32(13)
        h = uint32(h * uint32(0xC2B2AE35))
        h ^= h >> uint32(16)
        out[i] = h


@cuda.jit("void(float32[::1], float32[::1])")
def block_scan(x, out):
    buf = cuda.shared.array(TPB, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else float32(0.0)
    cuda.syncthreads()
    offset = 1
    while offset < TPB:
        v = buf[tid - offset] if tid >= offset else float32(0.0)
        cuda.syncthreads()
        buf[tid] += v
        cuda.syncthreads()
        offset *= 2
    if i < x.size:
        out[i] = buf[tid]


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1])")
def where_select(cond, a, b, out):
    for i in range(cuda.grid(1), cond.size, cuda.gridsize(1)):
        out[i] = a[i] if cond[i] > float32(0.5) else b[i]


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def pairwise_dist(p, q, out):
    j, i = cuda.grid(2)
    if i < p.shape[0] and j < q.shape[0]:
        acc = float32(0.0)
        for k in range(p.shape[1]):
            d = p[i, k] - q[j, k]
            acc += d * d
        out[i, j] = math.sqrt(acc)


@cuda.jit("void(int64[::1], int32[::1])")
def collatz_steps(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i]
        steps = int32(0)
        while v > 1 and steps < 1000:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            steps += 1
        out[i] = steps


@cuda.jit("void(float32[::1], float32[::1])")
def softplus(x, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i]
        out[i] = v + math.log1p(math.exp(-v)) if v > float32(0.0) else math.log1p(math.exp(v))


@cuda.jit("void(float32[:, ::1], float32[::1], float32[:, ::1])")
def rms_norm_rows(x, w, out):
    # One block of TPB threads per row.
    buf = cuda.shared.array(TPB, float32)
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    n = x.shape[1]
    acc = float32(0.0)
    for j in range(tid, n, TPB):
        v = x[row, j]
        acc += v * v
    buf[tid] = acc
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    scale = float32(1.0) / math.sqrt(buf[0] / float32(n) + float32(1e-6))
    for j in range(tid, n, TPB):
        out[row, j] = x[row, j] * scale * w[j]


@cuda.jit("void(float32[::1], int64[::1], float32[::1])")
def gather(src, idx, out):
    for i in range(cuda.grid(1), idx.size, cuda.gridsize(1)):
        out[i] = src[idx[i]]


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def upsample2x(a, out):
    # Bilinear 2x upsampling, edges clamped.
    j, i = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        y = (i + 0.5) * 0.5 - 0.5
        x = (j + 0.5) * 0.5 - 0.5
        y0 = clamp(int(math.floor(y)), 0, a.shape[0] - 1)
        x0 = clamp(int(math.floor(x)), 0, a.shape[1] - 1)
        y1 = min(y0 + 1, a.shape[0] - 1)
        x1 = min(x0 + 1, a.shape[1] - 1)
        fy = float32(clamp(y - y0, 0.0, 1.0))
        fx = float32(clamp(x - x0, 0.0, 1.0))
        top = a[y0, x0] * (float32(1.0) - fx) + a[y0, x1] * fx
        bot = a[y1, x0] * (float32(1.0) - fx) + a[y1, x1] * fx
        out[i, j] = top * (float32(1.0) - fy) + bot * fy


if __name__ == "__main__":
    n = 1 << 16
    x = np.random.rand(n).astype(np.float32)
    out = np.empty_like(x)
    relu[64, TPB](x, out)
    print(np.abs(out - np.maximum(x, 0)).max())
