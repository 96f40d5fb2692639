# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig=count(Record(lower[type=int32;offset=0],upper[type=int32;offset=4],password[type=nestedarray(int32,(4,));offset=8];24;False)[::1],uint32[::1])
# Records with nested-array fields (numba's NestedArray, advent-of-numba day02): the
# field is a C-contiguous array viewing the record's bytes, indexed, measured with len
# and shape, and written through; `np.dtype` fields with a shape make them too (NumPy's
# type strings such as '<i4' name field types). A whole
# record is copied into an element of its own type (numba-cuda's cache_usecases).
import numpy as np
from numba import cuda, from_dtype, void

grid = from_dtype(np.dtype([("id", np.int16), ("cells", np.float64, (2, 3))], align=True))
# NumPy's type strings name field types too (advent-of-numba day02's '<i4').
vec = from_dtype(np.dtype([("n", "<i8"), ("v", "f8", 3), ("ok", "|b1")]))


@cuda.jit
def count(entries, answer):
    i = cuda.grid(1)
    if i < len(entries):
        entry = entries[i]
        password = entry["password"]
        n = 0
        for p in range(len(password)):
            if password[p] == entry.lower:
                n += 1
        width = entry.password.shape[0]
        entry.password[0] = n
        if n <= entry["upper"] and width == 4:
            cuda.atomic.inc(answer, 0, len(entries))


@cuda.jit(void(grid[::1], grid[::1]))
def copy(dst, src):
    i = cuda.grid(1)
    cells = src[i].cells
    total = cells[1, 2] + cells.size
    dst[i] = src[i]
    dst[i].cells[0, 0] = total


@cuda.jit(void(vec[::1]))
def norm(a):
    r = a[cuda.grid(1)]
    r.v[r.n] = r.v[0] * r.v[1] + len(r.v)
    r.ok = True
# CHECK:STDOUT: kernel count count__r3_5loweri32o0_5upperi32o4_8passwordi32a1Cn4o8_24a1C_u32a1C void(Record(lower[type=int32;offset=0],upper[type=int32;offset=4],password[type=nestedarray(int32, (4,));offset=8];24;False)[::1], uint32[::1])
# CHECK:STDOUT:   answer: array(uint32, 1d, C)
# CHECK:STDOUT:   entries: array(Record(lower[type=int32;offset=0],upper[type=int32;offset=4],password[type=nestedarray(int32, (4,));offset=8];24;False), 1d, C)
# CHECK:STDOUT:   entry: Record(lower[type=int32;offset=0],upper[type=int32;offset=4],password[type=nestedarray(int32, (4,));offset=8];24;False)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   p: int64
# CHECK:STDOUT:   password: nestedarray(int32, (4,))
# CHECK:STDOUT:   width: int64
# CHECK:STDOUT: kernel copy copy__r2_2idi16o0_5cellsf64a2Cn2x3o8_56aa1C_r2_2idi16o0_5cellsf64a2Cn2x3o8_56aa1C void(Record(id[type=int16;offset=0],cells[type=nestedarray(float64, (2, 3));offset=8];56;True)[::1], Record(id[type=int16;offset=0],cells[type=nestedarray(float64, (2, 3));offset=8];56;True)[::1])
# CHECK:STDOUT:   cells: nestedarray(float64, (2, 3))
# CHECK:STDOUT:   dst: array(Record(id[type=int16;offset=0],cells[type=nestedarray(float64, (2, 3));offset=8];56;True), 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   src: array(Record(id[type=int16;offset=0],cells[type=nestedarray(float64, (2, 3));offset=8];56;True), 1d, C)
# CHECK:STDOUT:   total: float64
# CHECK:STDOUT: kernel norm norm__r3_1ni64o0_1vf64a1Cn3o8_2okb1o32_33a1C void(Record(n[type=int64;offset=0],v[type=nestedarray(float64, (3,));offset=8],ok[type=bool;offset=32];33;False)[::1])
# CHECK:STDOUT:   a: array(Record(n[type=int64;offset=0],v[type=nestedarray(float64, (3,));offset=8],ok[type=bool;offset=32];33;False), 1d, C)
# CHECK:STDOUT:   r: Record(n[type=int64;offset=0],v[type=nestedarray(float64, (3,));offset=8],ok[type=bool;offset=32];33;False)
