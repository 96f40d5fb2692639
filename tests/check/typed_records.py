# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Records (NumPy structured dtypes, numba's Record types): `np.dtype([...],
# align=...)` and `numba.from_dtype` at module level, NumPy's offsets (packed or
# aligned), numba.cuda.random's xoroshiro128p_type; an element is a reference to
# the record, its fields read and written as `r.x` or `r['x']`.
import numpy as np
from numba import cuda, from_dtype, void
from numba.cuda.random import xoroshiro128p_type

particle = np.dtype([("x", np.float32), ("n", np.int8), ("m", "float64")], align=True)
Particle = from_dtype(particle)
packed = from_dtype(np.dtype([("a", np.int16), ("b", np.float64)]))


@cuda.jit(void(Particle[::1], packed[:, ::1], xoroshiro128p_type[::1]))
def k(p, q, s):
    i = cuda.grid(1)
    r = p[i]
    r.x = r.x * 2
    p[i]["m"] += r.n
    field_n = p[i].n
    field_b = q[i, 0]["b"]
    state = s[i].s0 ^ s[i].s1
# CHECK:STDOUT: kernel k k__r3_1xf32o0_1ni8o4_1mf64o8_16aa1C_r2_1ai16o0_1bf64o2_10a2C_r2_2s0u64o0_2s1u64o8_16aa1C void(Record(x[type=float32;offset=0],n[type=int8;offset=4],m[type=float64;offset=8];16;True)[::1], Record(a[type=int16;offset=0],b[type=float64;offset=2];10;False)[:, ::1], Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)[::1])
# CHECK:STDOUT:   field_b: float64
# CHECK:STDOUT:   field_n: int8
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   p: array(Record(x[type=float32;offset=0],n[type=int8;offset=4],m[type=float64;offset=8];16;True), 1d, C)
# CHECK:STDOUT:   q: array(Record(a[type=int16;offset=0],b[type=float64;offset=2];10;False), 2d, C)
# CHECK:STDOUT:   r: Record(x[type=float32;offset=0],n[type=int8;offset=4],m[type=float64;offset=8];16;True)
# CHECK:STDOUT:   s: array(Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True), 1d, C)
# CHECK:STDOUT:   state: uint64
