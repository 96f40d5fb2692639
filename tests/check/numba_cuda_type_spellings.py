# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""numba-cuda 0.30's spellings of numba's types (issue 21 item 2): `from numba.cuda import
types, float32, void`, `numba.cuda.types.NAME`, `from numba.cuda.types import int32`, and
signatures held in module variables (`sig = void(...)`, `types.void(...)`)."""
import numba.cuda
from numba import cuda
from numba.cuda import float32, types, void
from numba.cuda.types import int32

sig = void(float32[::1], int32)
typed = types.void(types.float64[:, ::1], types.uint32)


@cuda.jit(sig)
def scale(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] += x[i]


@cuda.jit(typed)
def fill(a, n):
    i, j = cuda.grid(2)
    if i < n and j < a.shape[1]:
        a[i, j] = i


@cuda.jit(numba.cuda.types.void(numba.cuda.types.int16[::1]))
def neg(v):
    i = cuda.grid(1)
    if i < v.size:
        v[i] = -v[i]
# CHECK:STDOUT: kernel scale scale__f32a1C_i32 void(float32[::1], int32)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel fill fill__f64a2C_u32 void(float64[:, ::1], uint32)
# CHECK:STDOUT:   a: array(float64, 2d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   j: int64
# CHECK:STDOUT:   n: uint32
# CHECK:STDOUT: kernel neg neg__i16a1C void(int16[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   v: array(int16, 1d, C)
