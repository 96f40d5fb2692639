"""numba.cuda kernel API coverage for pykc (issue 4): atomics, synchronisation, warp
intrinsics, bit intrinsics, iteration, views. Written as numba.cuda users write them
(numba-cuda compiles this file unchanged); tests/gpu/cases/api_cases.py holds the NumPy
references.

Compile: pykc compile tests/gpu/kernels/api_kernels.py --arch sm_90 -o <root>/api_kernels
"""
import math

import numpy as np
from numba import cuda, float32, float64, int32, int64, uint32, uint64

COEFFS = (1.5, -2.0, 0.25)
WEIGHTS = (3, 1, 4, 1, 5)
INC_LIMIT = 100


# ----------------------------------------------------------------------------- atomics

@cuda.jit(["void(int32[::1], int32[:, ::1])", "void(int64[::1], int64[:, ::1])",
           "void(uint32[::1], uint32[:, ::1])", "void(uint64[::1], uint64[:, ::1])"])
def atomic_int_ops(cells, olds):
    # One thread per row of `olds`; each column records one atomic's old value.
    i = cuda.grid(1)
    if i >= olds.shape[0]:
        return
    olds[i, 0] = cuda.atomic.add(cells, 0, 3)
    olds[i, 1] = cuda.atomic.sub(cells, 1, 2)
    olds[i, 2] = cuda.atomic.max(cells, 2, i)
    olds[i, 3] = cuda.atomic.min(cells, 3, i + 7)
    olds[i, 4] = cuda.atomic.and_(cells, 4, ~(1 << (i % 20)))
    olds[i, 5] = cuda.atomic.or_(cells, 5, 1 << (i % 24))
    olds[i, 6] = cuda.atomic.xor(cells, 6, i)
    olds[i, 7] = cuda.atomic.exch(cells, 7, i)
    olds[i, 8] = cuda.atomic.nanmax(cells, 8, i)
    olds[i, 9] = cuda.atomic.nanmin(cells, 9, i + 11)


@cuda.jit(["void(uint32[::1], uint32[:, ::1])", "void(uint64[::1], uint64[:, ::1])"])
def atomic_inc_dec(cells, olds):
    i = cuda.grid(1)
    if i >= olds.shape[0]:
        return
    olds[i, 0] = cuda.atomic.inc(cells, 0, INC_LIMIT)
    olds[i, 1] = cuda.atomic.dec(cells, 1, INC_LIMIT)


@cuda.jit(["void(float32[::1], float32[::1], float32[:, ::1])",
           "void(float64[::1], float64[::1], float64[:, ::1])"])
def atomic_float_ops(cells, vals, olds):
    # cells: 0 add, 1 sub, 2 max, 3 min, 4 max onto NaN, 5 nanmax onto NaN,
    # 6 nanmin onto NaN, 7 min onto NaN, 8 nanmax, 9 nanmin.
    i = cuda.grid(1)
    if i >= vals.shape[0]:
        return
    v = vals[i]
    olds[i, 0] = cuda.atomic.add(cells, 0, 0.5)
    olds[i, 1] = cuda.atomic.sub(cells, 1, 0.25)
    cuda.atomic.max(cells, 2, v)
    cuda.atomic.min(cells, 3, v)
    cuda.atomic.max(cells, 4, v)
    cuda.atomic.nanmax(cells, 5, v)
    cuda.atomic.nanmin(cells, 6, v)
    cuda.atomic.min(cells, 7, v)
    cuda.atomic.nanmax(cells, 8, v)
    cuda.atomic.nanmin(cells, 9, v)


@cuda.jit(["void(float32[::1], float32[::1], float32[:, ::1])",
           "void(float64[::1], float64[::1], float64[:, ::1])"])
def atomic_minmax_sequence(cells, vals, olds):
    # One thread applies the four in turn: numba's NaN rules and old values.
    if cuda.grid(1) == 0:
        for k in range(vals.shape[0]):
            olds[k, 0] = cuda.atomic.max(cells, 0, vals[k])
            olds[k, 1] = cuda.atomic.nanmax(cells, 1, vals[k])
            olds[k, 2] = cuda.atomic.min(cells, 2, vals[k])
            olds[k, 3] = cuda.atomic.nanmin(cells, 3, vals[k])


@cuda.jit("void(int32[::1], int32[:, ::1], float64[:, ::1])")
def atomic_shared_tuple(keys, counts, sums):
    # Per-block 2-D histograms in shared memory with tuple indices, then merged
    # into global memory with tuple indices.
    hist = cuda.shared.array((4, 8), int32)
    fsum = cuda.shared.array((4, 8), float64)
    t = cuda.threadIdx.x
    if t < 32:
        hist[t // 8, t % 8] = 0
        fsum[t // 8, t % 8] = 0.0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < keys.shape[0]:
        k = keys[i]
        cuda.atomic.add(hist, (k // 8, k % 8), 1)
        cuda.atomic.add(fsum, (k // 8, k % 8), 0.5 * k)
    cuda.syncthreads()
    if t < 32:
        cuda.atomic.add(counts, (t // 8, t % 8), hist[t // 8, t % 8])
        cuda.atomic.add(sums, (t // 8, t % 8), fsum[t // 8, t % 8])


@cuda.jit(["void(int32[::1], int32[:, ::1])", "void(uint64[::1], uint64[:, ::1])"])
def atomic_cas_counter(cells, grid2):
    # Increment through compare-and-swap loops: cas on a 1-d and a 2-d array
    # (tuple index), compare_and_swap on element 0.
    i = cuda.grid(1)
    old = cells[0]
    while True:
        seen = cuda.atomic.cas(cells, 0, old, old + 1)
        if seen == old:
            break
        old = seen
    old = grid2[1, 2]
    while True:
        seen = cuda.atomic.cas(grid2, (1, 2), old, old + 2)
        if seen == old:
            break
        old = seen
    view = cells[1:]
    old = view[0]
    while True:
        seen = cuda.atomic.compare_and_swap(view, old, old + 3)
        if seen == old:
            break
        old = seen
    if i == 0:
        # A failing compare: leaves the element and returns it.
        grid2[0, 0] = cuda.atomic.cas(grid2, (0, 1), 12345, 7)


# ----------------------------------------------------------------------------- sync, warp

@cuda.jit("void(float32[::1], int32[:, ::1])")
def sync_predicates(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.shape[0] else float32(0)
    # numba types the predicate int32.
    c = cuda.syncthreads_count(int32(v > 0))
    a = cuda.syncthreads_and(int32(v > -5))
    o = cuda.syncthreads_or(int32(v > 3))
    cuda.syncwarp()
    cuda.syncwarp(0xFFFFFFFF)
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x, 0] = c
        out[cuda.blockIdx.x, 1] = a
        out[cuda.blockIdx.x, 2] = o


@cuda.jit(["void(int32[::1], int32[:, ::1])", "void(int64[::1], int32[:, ::1])",
           "void(float32[::1], int32[:, ::1])", "void(float64[::1], int32[:, ::1])"])
def match_sync(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = cuda.match_any_sync(0xFFFFFFFF, v)
    mask, same = cuda.match_all_sync(0xFFFFFFFF, v)
    out[i, 1] = mask
    out[i, 2] = same
    # Half-warp masks: only the lanes of the mask take part.
    if cuda.laneid < 16:
        out[i, 3] = cuda.match_any_sync(0x0000FFFF, v)
    else:
        out[i, 3] = cuda.match_any_sync(0xFFFF0000, v)


@cuda.jit("void(int32[::1], int64[:, ::1])")
def warp_votes(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = cuda.all_sync(0xFFFFFFFF, v > 0)
    out[i, 1] = cuda.any_sync(0xFFFFFFFF, v > 90)
    out[i, 2] = cuda.eq_sync(0xFFFFFFFF, v % 2)
    out[i, 3] = cuda.ballot_sync(0xFFFFFFFF, v > 50)
    out[i, 4] = cuda.activemask()
    out[i, 5] = cuda.lanemask_lt()
    out[i, 6] = cuda.laneid


@cuda.jit(["void(int32[::1], int32[:, ::1])", "void(int64[::1], int64[:, ::1])",
           "void(float32[::1], float32[:, ::1])", "void(float64[::1], float64[:, ::1])"])
def shuffles(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = cuda.shfl_sync(0xFFFFFFFF, v, (cuda.laneid * 7) % 32)
    out[i, 1] = cuda.shfl_up_sync(0xFFFFFFFF, v, 3)
    out[i, 2] = cuda.shfl_down_sync(0xFFFFFFFF, v, 5)
    out[i, 3] = cuda.shfl_xor_sync(0xFFFFFFFF, v, 6)


@cuda.jit("void(int32[::1])")
def lane_info(out):
    # numba reads warpsize from the device: this kernel compiles on a GPU host.
    i = cuda.grid(1)
    out[i] = cuda.laneid + 100 * cuda.warpsize


# ----------------------------------------------------------------------------- intrinsics

@cuda.jit("void(int32[::1], int32[::1], float64[::1], float64[:, ::1])")
def selp_sleep(a, b, x, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    cuda.nanosleep(uint32(100))
    out[i, 0] = cuda.selp(a[i] > b[i], a[i], b[i])
    out[i, 1] = cuda.selp(x[i] > 0, x[i], -x[i])
    out[i, 2] = cuda.selp(a[i] % 2 == 0, int64(a[i]), int64(-7))


@cuda.jit("void(uint32[::1], int64[::1], int32[:, ::1], uint64[:, ::1])")
def bit_intrinsics(u, s, out32, out64):
    i = cuda.grid(1)
    if i >= u.shape[0]:
        return
    out32[i, 0] = cuda.popc(u[i])
    out32[i, 1] = cuda.clz(u[i])
    out32[i, 2] = cuda.ffs(u[i])
    out32[i, 3] = cuda.brev(u[i])
    out64[i, 0] = cuda.popc(s[i])
    out64[i, 1] = cuda.clz(s[i])
    out64[i, 2] = cuda.ffs(s[i])
    out64[i, 3] = cuda.brev(s[i])


# ----------------------------------------------------------------------------- iteration

@cuda.jit("void(float64[:, ::1], float64[::1])")
def iter_rows(a, out):
    # Iterating a 2-d array yields rows; iterating a row yields elements.
    i = cuda.grid(1)
    if i >= a.shape[1]:
        return
    s = 0.0
    r = 0
    for row in a:
        s += row[i] * (r + 1)
        r += 1
    for v in a[i % a.shape[0]]:
        s += v
    out[i] = s


@cuda.jit("void(float32[:, ::1], float32[:, :], float32[::1])")
def iter_enumerate_zip(a, b, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    acc = float32(0)
    for k, v in enumerate(a[i]):
        acc += float32(k) * v
    for p, q in zip(a[i], b[i]):
        acc += p * q
    for k, (p, q) in enumerate(zip(a[i, ::2], b[i]), 1):
        acc += float32(k) * (p - q)
    for j, v in zip(range(3, 100, 4), a[i]):
        acc += float32(j) * v
    out[i] = acc


@cuda.jit("void(float64[::1], float64[::1])")
def iter_tuples(x, out):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    s = 0.0
    for c in COEFFS:
        s = s * x[i] + c
    w = 0
    for k, m in enumerate(WEIGHTS):
        w += k * m
    for v in (x[i], 2 * x[i], -x[i]):
        s += v * v
    out[i] = s + w


# ----------------------------------------------------------------------------- views

@cuda.jit("void(float32[:, ::1], float32[:, ::1], int64[::1])")
def transpose_view(a, out, info):
    at = a.T
    i, j = cuda.grid(2)
    if i < at.shape[0] and j < at.shape[1]:
        out[i, j] = at[i, j] * 2
    if i == 0 and j == 0:
        info[0] = at.strides[0]
        info[1] = at.strides[1]
        info[2] = at.shape[0]
        info[3] = a.T.T.shape[0]


@cuda.jit("void(int64[::1], int64[::1])")
def loop_else(x, out):
    # `else` on for/while loops runs when the loop ends without `break`.
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    found = -1
    for j in range(x.shape[0]):
        if x[j] == i:
            found = j
            break
    else:
        found = -2
    for v in x[: i % 7]:
        if v < 0:
            break
    else:
        found += 1000
    n = 0
    while n < 5:
        n += 1
    else:
        n *= 10
    out[i] = found + n
