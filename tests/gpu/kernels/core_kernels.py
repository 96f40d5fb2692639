"""Core language coverage for pykc (issue 3): one kernel per feature, each with a
signature string, written as numba.cuda users write them (numba-cuda compiles this
file unchanged). tests/gpu/cases/core_cases.py holds the NumPy references.

Compile: pykc compile tests/gpu/kernels/core_kernels.py --arch sm_90 -o <root>/core_kernels
"""
import math

import numba
import numpy as np
from numba import cuda
from numba import cuda as nc
from numba import float32, float64, int32, int64, uint32, uint64

TPB = 256
TILE = 16
HALF = TPB // 2
SCALE = 2.5
SHAPE2 = (TILE, TILE + 1)
NEG_START = -7
FLAG = True and not False


# ----------------------------------------------------------------------------- basics

@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy_gs(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = a * x[i] + y[i]


@nc.jit("void(float32[::1], float32[::1])")
def double_f64_semantics(x, out):
    # float32 * 2.0 (a float64 literal) is float64 in numba, stored back as float32.
    i = nc.grid(1)
    if i < x.size:
        out[i] = x[i] * 2.0 + 0.1


@cuda.jit("void(int64[::1], int64[::1], int64[::1], int64[::1])")
def int_floordiv_mod(a, b, q, r):
    # Python semantics for negative operands; x // 0 and x % 0 give 0 (numba on GPU).
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


@cuda.jit("void(float64[::1], float64[::1], float64[::1], float64[::1])")
def float_floordiv_mod(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


@cuda.jit("void(int32[::1], int32[::1], float64[::1])")
def true_division(a, b, out):
    # int32 / int32 is float64.
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] / b[i]


@cuda.jit("void(int64[::1], int64[::1], float32[::1], float64[::1])")
def power_ops(base, e, fout, dout):
    # int ** int (exact, by squaring), float32 ** int, float ** float.
    i = cuda.grid(1)
    if i < base.size:
        b = base[i]
        k = e[i]
        base[i] = b ** k
        f = float32(1.0) + float32(i % 7) * float32(0.25)
        fout[i] = f ** k
        dout[i] = (1.0 + i * 0.001) ** 2.5 + b ** 2


@cuda.jit("void(int32[::1], uint32[::1], int64[::1], uint64[::1], float64[::1])")
def mixed_int_types(a, ua, out64, uout, fout):
    # int32 + int32 -> int64; uint32 + uint32 -> uint64; int64 + uint64 -> int64 (numba);
    # max(int64, uint64) -> float64 (unification).
    i = cuda.grid(1)
    if i < a.size:
        out64[i] = a[i] * a[i] + a[i]
        uout[i] = ua[i] + ua[i]
        s = int64(a[i])
        u = uint64(ua[i])
        out64[i] += s + u
        fout[i] = max(s, u)


@cuda.jit("void(int64[::1], int64[::1])")
def bit_ops(a, out):
    i = cuda.grid(1)
    if i < a.size:
        v = a[i]
        out[i] = ((v << 3) ^ (v >> 2)) | (v & 0xFF) + (~v & 7)


@cuda.jit("void(float64[::1], int64[::1])")
def compare_chain(x, out):
    # Chained comparisons, `and`/`or`/`not`, bool arithmetic.
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        inside = -1.0 < v <= 1.0
        outside = v < -2.0 or v > 2.0
        out[i] = inside * 10 + (not outside) + (inside and not outside) * 100


@cuda.jit("void(float32[::1], float32[::1])")
def conditional_expr(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = v if v > 0 else -v * float32(0.5)


@cuda.jit("void(float64[::1], int64[::1], float64[::1])")
def casts(x, iout, fout):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        iout[i] = int(v) + np.int32(v * 2) + int64(float32(v))
        fout[i] = float(int(v)) + np.float32(v) + round(v) + round(v, 1)


@cuda.jit("void(float64[::1], float64[::1])")
def builtins_minmax_abs(x, out):
    i = cuda.grid(1)
    n = len(x)
    if i < n:
        v = x[i]
        out[i] = max(v, 0.0) + min(v, 0.5, 0.25) + abs(v) + abs(-3) + max(1, 2, i % 3)


@cuda.jit("void(float32[::1], float32[::1])")
def math_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        a = math.sin(v) + math.cos(v) + math.exp(v * float32(0.1)) + math.sqrt(abs(v))
        b = math.atan2(v, float32(1.5)) + math.tanh(v) + math.log1p(abs(v)) + math.floor(v)
        out[i] = a + b + math.fabs(v) + math.erf(v) + math.hypot(v, float32(2.0))


@cuda.jit("void(float64[::1], float64[::1])")
def math_f64(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        a = math.log(abs(v) + 1.0) + math.log10(abs(v) + 1.0) + math.log2(abs(v) + 1.0)
        b = math.pow(abs(v), 1.5) + math.ceil(v) + math.trunc(v) + math.copysign(2.0, v)
        c = math.fmod(v, 0.75) + math.expm1(v * 0.1) + math.asinh(v) + math.atan(v)
        d = math.degrees(v) * 0.01 + math.radians(v) + math.pi + math.e + math.gamma(1.5)
        flags = math.isnan(v) + math.isinf(v) * 2 + math.isfinite(v) * 4
        out[i] = a + b + c + d + flags


@cuda.jit("void(float64[::1], int64[::1])")
def math_int_args(x, out):
    # math functions of ints give float64.
    i = cuda.grid(1)
    if i < x.size:
        x[i] = math.sqrt(i) + math.exp(i % 3)
        out[i] = math.isnan(i) + 3


# ----------------------------------------------------------------------------- control flow

@cuda.jit("void(int64[::1], int64)")
def loops(out, n):
    # range with 1, 2, 3 arguments, negative steps, break, continue, while.
    i = cuda.grid(1)
    if i >= out.size:
        return
    acc = 0
    for k in range(n):
        acc += k
    for k in range(10, 2, -3):
        acc += k * 100
    for k in range(NEG_START, 3):
        if k == 0:
            continue
        if k == 2:
            break
        acc += k
    j = i % 5
    while True:
        j -= 1
        if j < 0:
            break
        acc += 1000
    for k in range(i % 4, -(i % 3) - 1, -1):
        acc += 7
    out[i] = acc


@cuda.jit("void(int64[::1], int64)")
def dynamic_step(out, step):
    # The step's sign is known only at run time.
    i = cuda.grid(1)
    if i < out.size:
        total = 0
        if step > 0:
            start, stop = 0, i % 50
        else:
            start, stop = i % 50, 0
        for k in range(start, stop, step):
            total += k
        out[i] = total


@cuda.jit("void(float64[::1], float64[::1])")
def unify_types(x, out):
    # acc starts as int64 and is unified with float64 over all assignments.
    i = cuda.grid(1)
    if i < x.size:
        acc = 0
        for k in range(4):
            acc += x[i] * k
        out[i] = acc


@cuda.jit("void(int32[::1], int32[::1])")
def elif_chain(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        if v < -10:
            r = -2
        elif v < 0:
            r = -1
        elif v == 0:
            r = 0
        elif v <= 10:
            r = 1
        else:
            r = 2
        out[i] = r


# ----------------------------------------------------------------------------- device functions

@cuda.jit(device=True)
def clamp(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


@cuda.jit(device=True)
def divmod_pair(a, b):
    return a // b, a % b


@cuda.jit("float64(float64, float64)", device=True)
def lerp_typed(a, t):
    return a + (clamp(t, 0.0, 1.0) - a) * t


@cuda.jit("void(float64[::1], int64[::1], float64[::1])")
def device_calls(x, pairs, out):
    i = cuda.grid(1)
    if i < x.size:
        q, r = divmod_pair(i, 7)
        pairs[i] = q * 100 + r
        out[i] = clamp(x[i], -0.5, 0.5) + lerp_typed(x[i], 0.25) + clamp(i, 3, 9)


@cuda.jit(device=True)
def gelu(v):
    return 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))


@cuda.jit("void(float64[:, :], float64[:, :])")
def gelu_2d(x, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = gelu(x[i, j])


# ----------------------------------------------------------------------------- arrays

@cuda.jit("void(float32[:, ::1], float32[::1, :], float32[:, :])")
def layouts_2d(c, f, out):
    # C, F and A layouts; A may be any strided view.
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = c[i, j] + f[i, j] * 2


@cuda.jit("void(float64[:, :, :], float64[:, :, ::1])")
def array_3d(x, out):
    i, j, k = cuda.grid(3)
    if i < x.shape[0] and j < x.shape[1] and k < x.shape[2]:
        out[i, j, k] = x[i, j, k] * x.ndim + x.size * 0 + out.shape[2]


@cuda.jit("void(float32[::1], float32[::1])")
def negative_index(x, out):
    # x[-1] is the last element (numba wraps negative indices).
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[-1 - i] + x[-x.size]


@cuda.jit("void(int64[:, ::1], int64[::1])")
def tuple_index(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        idx = (i, a.shape[1] - 1)
        shp = a.shape
        t = (1, 2.5, i)
        out[i] = a[idx] + a[i, 0] + shp[1] + len(t) + int(t[1] * 2) + t[-1]


@cuda.jit("void(float32[::1], float32[::1])")
def local_array(x, out):
    i = cuda.grid(1)
    if i < x.size:
        tmp = cuda.local.array(8, dtype=numba.float32)
        for k in range(8):
            tmp[k] = x[i] * k
        s = float32(0)
        for k in range(7, -1, -1):
            s += tmp[k]
        out[i] = s


@cuda.jit("void(float32[:, ::1], float32[::1], float32[:, :])")
def array_views(a, rowsum, out):
    # Views: a row (C), a column (A), reversed and stepped slices, a 2-d slice.
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        s = float32(0)
        for k in range(row.size):
            s += row[k]
        rowsum[i] = s
        col = a[:, i % a.shape[1]]
        rev = row[::-1]
        mid = row[1:-1:2]
        o = out[i]
        o[0] = col[0] + rev[0] + mid[0] + len(mid)
        o[1] = a[i, 1:3][1] + a[-1:, :][0, 0]


# ----------------------------------------------------------------------------- threads, shared memory, atomics

@cuda.jit("void(float32[::1], float32[::1])")
def block_sum(x, partial):
    buf = cuda.shared.array(TPB, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else np.float32(0.0)
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]


@cuda.jit("void(float32[::1], float32[::1])")
def block_sum_atomic(x, total):
    # Tree reduction in shared memory, then one atomic add per block.
    buf = cuda.shared.array(shape=(TPB,), dtype="float32")
    tid = cuda.threadIdx.x
    acc = float32(0.0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    buf[tid] = acc
    cuda.syncthreads()
    s = HALF
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, buf[0])


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def matmul_tiled(a, b, c):
    sa = cuda.shared.array((TILE, TILE), float32)
    sb = cuda.shared.array((TILE, TILE), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * TILE + ty
    col = cuda.blockIdx.x * TILE + tx
    acc = float32(0.0)
    for t in range((a.shape[1] + TILE - 1) // TILE):
        k = t * TILE
        sa[ty, tx] = a[row, k + tx] if row < a.shape[0] and k + tx < a.shape[1] else 0
        sb[ty, tx] = b[k + ty, col] if k + ty < b.shape[0] and col < b.shape[1] else 0
        cuda.syncthreads()
        for kk in range(TILE):
            acc += sa[ty, kk] * sb[kk, tx]
        cuda.syncthreads()
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def softmax_rows(x, out):
    # One block per row: max, then sum of exp, in shared memory.
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    buf = cuda.shared.array(TPB, float32)
    n = x.shape[1]
    m = -math.inf
    for j in range(tid, n, cuda.blockDim.x):
        m = max(m, x[row, j])
    buf[tid] = m
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            buf[tid] = max(buf[tid], buf[tid + s])
        cuda.syncthreads()
        s //= 2
    rmax = buf[0]
    cuda.syncthreads()
    acc = float32(0.0)
    for j in range(tid, n, cuda.blockDim.x):
        acc += math.exp(x[row, j] - rmax)
    buf[tid] = acc
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    total = buf[0]
    for j in range(tid, n, cuda.blockDim.x):
        out[row, j] = math.exp(x[row, j] - rmax) / total


@cuda.jit("void(int32[::1], int32[::1], int32[::1])")
def histogram_atomic(x, bins, old_out):
    # Atomic add on global and shared arrays; the old value is returned.
    local_bins = cuda.shared.array(16, int32)
    tid = cuda.threadIdx.x
    if tid < 16:
        local_bins[tid] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(local_bins, x[i] % 16, 1)
    cuda.syncthreads()
    if tid < 16:
        old = cuda.atomic.add(bins, tid, local_bins[tid])
        old_out[cuda.blockIdx.x * 16 + tid] = old * 0 + 1


@cuda.jit("void(int64[:, ::1], uint32[::1], float64[::1])")
def atomics_misc(counts, maxes, fsum):
    i = cuda.grid(1)
    cuda.atomic.add(counts, (i % 4, i % 3), 1)
    cuda.atomic.max(maxes, 0, uint32(i))
    cuda.atomic.min(maxes, 1, uint32(i + 5))
    cuda.atomic.add(fsum, 0, 0.5)


@cuda.jit("void(int32[:, ::1])")
def thread_indices(out):
    # threadIdx/blockIdx/blockDim/gridDim in 2-D, cuda.gridsize(2).
    x, y = cuda.grid(2)
    w, h = cuda.gridsize(2)
    if x < out.shape[1] and y < out.shape[0]:
        out[y, x] = (cuda.threadIdx.x + cuda.threadIdx.y * 1000 + cuda.blockIdx.x * 100000
                     + cuda.blockDim.x * 0 + cuda.gridDim.y * 0 + (w * h) % 1)


# ----------------------------------------------------------------------------- constants, annotations

@cuda.jit
def annotated(x: float64[::1], out: float64[::1], k: int32):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * SCALE + k + SHAPE2[1] + FLAG


@cuda.jit(["void(int32[::1], int32)", "void(float64[::1], float64)"])
def multi_sig(x, s):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * s + 1


@cuda.jit((float32[::1], float32[::1]), fastmath=True)
def fastmath_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] / float32(3.0) + math.sqrt(abs(x[i]))


@cuda.jit("void(uint64[::1], int64)")
def unsigned_range(out, n):
    # range over uint64: the loop variable is uint64.
    i = cuda.grid(1)
    if i < out.size:
        total = uint64(0)
        for k in range(uint64(n)):
            total += k
        out[i] = total + uint64(i)


# ----------------------------------------------------------------------------- warp intrinsics

@cuda.jit("void(float32[::1], float32[::1], float64[::1], int64[::1])")
def warp_shuffles(x, wsum, dsum, first):
    # Launched with exactly len(x) threads, a multiple of 32.
    i = cuda.grid(1)
    v = x[i]
    d = float64(v)
    k = int64(i) << 33
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        d += cuda.shfl_xor_sync(0xFFFFFFFF, d, offset)
        offset //= 2
    first[i] = cuda.shfl_sync(0xFFFFFFFF, k, 0) + cuda.shfl_up_sync(0xFFFFFFFF, i, 1)
    if cuda.laneid == 0:
        wsum[i // 32] = v
    dsum[i] = d


@cuda.jit("void(int32[::1], int32[:, ::1])")
def warp_vote_bits(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = cuda.popc(cuda.ballot_sync(0xFFFFFFFF, v > 0))
    out[i, 1] = cuda.all_sync(0xFFFFFFFF, v > -1000) + 2 * cuda.any_sync(0xFFFFFFFF, v < 0)
    out[i, 2] = cuda.ffs(uint32(v & 0xFF))
    out[i, 3] = cuda.clz(v)
    out[i, 4] = cuda.brev(uint32(v)) >> 16
    out[i, 5] = int32(cuda.fma(float32(v), float32(2.0), float32(1.0)) + cuda.cbrt(27.0))


# Host code: parsed and ignored by pykc.
if __name__ == "__main__":
    xs = np.arange(10, dtype=np.float32)
    print([v for v in xs if v > 3])
