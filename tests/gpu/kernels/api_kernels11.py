"""numba idioms of real code (issue 21), fifth file: records with nested-array fields (numba's
NestedArray: advent-of-numba day02's password database, a 2-d field written through) and a
whole record stored into an element (numba-cuda's cache_usecases `record_return`, packed and
aligned). tests/gpu/cases/api_cases11.py runs each kernel here and numba-cuda's own on the same
inputs, and wants the same bytes.

Compile: bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels11.py sm_90 <root>/api_kernels11
"""
# pykc-compile: --sig count_valid(Record(lower[type=int32;offset=0],upper[type=int32;offset=4],letter[type=int32;offset=8],length[type=int32;offset=12],password[type=nestedarray(int32,(8,));offset=16];48;False)[::1],uint32[::1])
# pykc-compile: --sig new_policy(Record(lower[type=int32;offset=0],upper[type=int32;offset=4],letter[type=int32;offset=8],length[type=int32;offset=12],password[type=nestedarray(int32,(8,));offset=16];48;False)[::1],uint32[::1])
# pykc-compile: --sig record_return(Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)[()],Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)[::1],int64)
# pykc-compile: --sig record_return(Record(a[type=int8;offset=0],b[type=float64;offset=8];16;True)[()],Record(a[type=int8;offset=0],b[type=float64;offset=8];16;True)[::1],int64)
# pykc-compile: --sig copy_records(Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)[::1],Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)[::1])
# pykc-compile: --sig fill_cells(Record(id[type=int16;offset=0],cells[type=nestedarray(float64,(2,3));offset=8];56;True)[::1])
import numpy as np
from numba import cuda

PASSWORD = np.dtype([("lower", "<i4"), ("upper", "<i4"), ("letter", "<i4"), ("length", "<i4"),
                     ("password", "<i4", 8)])
PACKED = np.dtype([("a", np.int8), ("b", np.float64)])
ALIGNED = np.dtype([("a", np.int8), ("b", np.float64)], align=True)
GRID = np.dtype([("id", np.int16), ("cells", np.float64, (2, 3))], align=True)


@cuda.jit
def count_valid(entries, answer):
    i = cuda.grid(1)
    if i < len(entries):
        entry = entries[i]
        count = 0
        letter = entry['letter']
        password = entry['password']
        for p in range(entry['length']):
            if password[p] == letter:
                count += 1
        if count >= entry['lower'] and count <= entry['upper']:
            cuda.atomic.inc(answer, 0, len(entries))


@cuda.jit
def new_policy(entries, answer):
    i = cuda.grid(1)
    if i < len(entries):
        entry = entries[i]
        p1 = entry['password'][entry['lower'] - 1]
        p2 = entry['password'][entry['upper'] - 1]
        letter = entry['letter']
        matches = int(p1 == letter) + int(p2 == letter) + len(entry.password) - 8
        if matches == 1:
            cuda.atomic.inc(answer, 0, len(entries))


@cuda.jit
def record_return(r, ary, i):
    r[()] = ary[i]


@cuda.jit
def copy_records(dst, src):
    i = cuda.grid(1)
    if i < src.size:
        dst[src.size - 1 - i] = src[i]


@cuda.jit
def fill_cells(g):
    i = cuda.grid(1)
    if i < len(g):
        cells = g[i].cells
        for a in range(cells.shape[0]):
            for b in range(cells.shape[1]):
                cells[a, b] += g[i].id * 10 + a * 3 + b + cells.size
