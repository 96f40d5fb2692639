"""Atomics as numba-cuda emits them: native atom/red for integer ops and float add;
float max/min/nanmax/nanmin as compare-and-swap loops after a volatile load (numba's
ir_numba_atomic_minmax); cas/compare_and_swap as atom.cas; u64 inc/dec; match and
selp and nanosleep."""
from numba import cuda


@cuda.jit("void(float32[::1], float64[::1])")
def fminmax(f, d):
    cuda.atomic.max(f, 0, f[1])
    cuda.atomic.nanmin(d, 0, d[1])


@cuda.jit("void(int32[::1], uint64[:, ::1], uint32[::1])")
def ints(a, b, u):
    a[1] = cuda.atomic.max(a, 0, 5)
    cuda.atomic.nanmax(a, 2, 7)
    cuda.atomic.xor(b, (0, 1), 3)
    cuda.atomic.inc(b, (1, 1), 10)
    cuda.atomic.dec(u, 0, 10)
    cuda.atomic.exch(u, 1, 4)
    u[2] = cuda.atomic.cas(b, (0, 0), 1, 2)
    a[3] = cuda.atomic.compare_and_swap(a, 1, 2)


@cuda.jit("void(float32[::1], int64[::1])")
def warp(f, n):
    n[0] = cuda.match_any_sync(0xFFFFFFFF, f[0])
    m, same = cuda.match_all_sync(0xFFFFFFFF, n[1])
    n[2] = cuda.selp(same, n[1], n[3]) + m
    cuda.nanosleep(1000)

# PTX-IN fminmax: ld\.volatile\.global\.f32
# PTX-IN fminmax: atom\.global\.cas\.b32
# PTX-IN fminmax: ld\.volatile\.global\.f64
# PTX-IN fminmax: atom\.global\.cas\.b64
# PTX-NOT-IN fminmax: atom\.global\.max
# PTX-IN ints: atom\.global\.max\.s32
# PTX-IN ints: (atom|red)\.global\.max\.s32
# PTX-IN ints: (atom|red)\.global\.xor\.b64
# PTX-IN ints: atom\.global\.cas\.b64
# PTX-IN ints: atom\.dec\.u32
# PTX-IN ints: atom\.global\.exch\.b32
# PTX-IN ints: atom\.global\.cas\.b32
# PTX-IN warp: match\.any\.sync\.b32
# PTX-IN warp: match\.all\.sync\.b64
# PTX-IN warp: selp\.
# PTX-IN warp: nanosleep\.u32
