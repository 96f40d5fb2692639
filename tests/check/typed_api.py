# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# numba's result types of the kernel API (checked with numba.cuda.compile_ptx):
# atomics return the element type, match_any_sync int32, match_all_sync
# (int32, bool), selp its operands' type; iteration yields elements, rows
# (C rows stay C), tuple elements, (int64, item) for enumerate, tuples for zip;
# `.T` reverses the layout.
from numba import cuda, float32, uint64


@cuda.jit("void(float32[:, ::1], uint64[::1], float64[::1, :], int32[:, :])")
def k(a, u, f, m):
    old_add = cuda.atomic.add(u, 0, 1)
    old_nanmax = cuda.atomic.nanmax(a, (0, 1), 2.5)
    old_cas = cuda.atomic.cas(m, (0, 0), 1, 2)
    old_swap = cuda.atomic.compare_and_swap(u, 1, 2)
    any_mask = cuda.match_any_sync(0xFFFFFFFF, a[0, 0])
    all_pair = cuda.match_all_sync(0xFFFFFFFF, u[0])
    picked = cuda.selp(u[0] > 2, a[0, 0], a[0, 1])
    for row in a:
        row_c = row
    for elem in a[0]:
        elem_f32 = elem
    for col in f.T:
        col_t = col
    for idx, pair in enumerate(zip(u, a[0])):
        idx_i = idx
        pair_t = pair
    for r in zip(range(3), range(uint64(5))):
        r_t = r
    for w in (1, 2, 3):
        w_t = w
    ft = f.T
    mt = m.T
    int_pow = pow(u[0], 3)
    float_pow = pow(a[0, 0], 2)
# CHECK:STDOUT: kernel k k__f32a2C_u64a1C_f64a2F_i32a2A void(float32[:, ::1], uint64[::1], float64[::1, :], int32[:, :])
# CHECK:STDOUT:   a: array(float32, 2d, C)
# CHECK:STDOUT:   all_pair: Tuple(int32, bool)
# CHECK:STDOUT:   any_mask: int32
# CHECK:STDOUT:   col: array(float64, 1d, A)
# CHECK:STDOUT:   col_t: array(float64, 1d, A)
# CHECK:STDOUT:   elem: float32
# CHECK:STDOUT:   elem_f32: float32
# CHECK:STDOUT:   f: array(float64, 2d, F)
# CHECK:STDOUT:   float_pow: float32
# CHECK:STDOUT:   ft: array(float64, 2d, C)
# CHECK:STDOUT:   idx: int64
# CHECK:STDOUT:   idx_i: int64
# CHECK:STDOUT:   int_pow: int64
# CHECK:STDOUT:   m: array(int32, 2d, A)
# CHECK:STDOUT:   mt: array(int32, 2d, A)
# CHECK:STDOUT:   old_add: uint64
# CHECK:STDOUT:   old_cas: int32
# CHECK:STDOUT:   old_nanmax: float32
# CHECK:STDOUT:   old_swap: uint64
# CHECK:STDOUT:   pair: Tuple(uint64, float32)
# CHECK:STDOUT:   pair_t: Tuple(uint64, float32)
# CHECK:STDOUT:   picked: float32
# CHECK:STDOUT:   r: Tuple(int64, uint64)
# CHECK:STDOUT:   r_t: Tuple(int64, uint64)
# CHECK:STDOUT:   row: array(float32, 1d, A)
# CHECK:STDOUT:   row_c: array(float32, 1d, A)
# CHECK:STDOUT:   u: array(uint64, 1d, C)
# CHECK:STDOUT:   w: int64
# CHECK:STDOUT:   w_t: int64
