# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig=doubled(float32[::1],float32[::1])
"""`cuda.jit` applied by a call rather than as a decorator (issue 21 item 2, and what
pykc's JIT sees for `k = cuda.jit(f)`): `cuda.jit(f, ...)`, `cuda.jit(sig)(f)`,
`cuda.jit(device=True)(g)`, `cuda.jit()(f)`. The function keeps its own name; the
assigned name calls it from other kernels, as in numba."""
from numba import cuda
from numba.types import float32, void


def plus_one(a):
    return a + float32(1)


inc = cuda.jit(device=True)(plus_one)


def bump(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = inc(x[i])


def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a


def doubled(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * float32(2)


doubled = cuda.jit(doubled)
bump_k = cuda.jit(void(float32[::1]))(bump)
scale_k = cuda.jit(scale, "void(float32[::1], float32)", fastmath=True)
also_bump = cuda.jit(bump)
# CHECK:STDOUT: kernel doubled doubled__f32a1C_f32a1C void(float32[::1], float32[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel bump bump__f32a1C void(float32[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel scale scale__f32a1C_f32 void(float32[::1], float32)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device plus_one pykc_device__plus_one__f32 float32(float32)
# CHECK:STDOUT:   a: float32
