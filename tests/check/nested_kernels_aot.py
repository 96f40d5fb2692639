# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig make_scale.scale(float32[::1],float32[::1]) --const TILE=128 -D factor=2.5 --sig make_reduce.<locals>.rows(float32[:,::1],float32[::1]) -D reduce_op=ct.max --sig TestKernels.test_add.add(float32[::1],float32[::1]) --sig test_prelude.kernel(float64[::1])
"""Kernels made inside functions (factories, test functions and methods) compile ahead of
time when named (`--kernel` or `--sig` with the qualified name, Python's `<locals>` too):
each sees its enclosing functions' names, with the values the statements before its `def`
fold and those `-D` gives (a number, or what the file imports: `-D reduce_op=ct.max`)."""
import math

import cuda.tile as ct
from numba import cuda

SCALE = 1.0


def make_scale(factor):
    @ct.kernel
    def scale(x, out, TILE: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(out, index=(ct.bid(0),), tile=t * factor)
    return scale


def make_reduce(reduce_op):
    @ct.kernel
    def rows(x, out):
        t = ct.load(x, index=(ct.bid(0), 0), shape=(4, 64))
        ct.store(out, index=(ct.bid(0),), tile=reduce_op(t, axis=1))
    return rows


class TestKernels:
    def test_add(self):
        @cuda.jit
        def add(a, b):
            a[cuda.grid(1)] += b[cuda.grid(1)]
        return add


def test_prelude():
    SCALE = 3.0  # the kernel sees this one, not the module's

    @cuda.jit(device=True)
    def twice(v):
        return 2 * v * SCALE

    def unused():
        pass

    @cuda.jit
    def kernel(x):
        i = cuda.grid(1)
        x[i] = twice(x[i]) + math.pi
    return kernel
# CHECK:STDOUT: kernel make_scale.scale make_scale$002Escale__f32a1C_f32a1C__KTILE_128 void(float32[::1], float32[::1], TILE=128)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   t: tile(float32, (128,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel make_reduce.rows make_reduce$002Erows__f32a2C_f32a1C void(float32[:, ::1], float32[::1])
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   t: tile(float32, (4, 64))
# CHECK:STDOUT:   x: array(float32, 2d, C)
# CHECK:STDOUT: kernel TestKernels.test_add.add TestKernels$002Etest_add$002Eadd__f32a1C_f32a1C void(float32[::1], float32[::1])
# CHECK:STDOUT:   a: array(float32, 1d, C)
# CHECK:STDOUT:   b: array(float32, 1d, C)
# CHECK:STDOUT: kernel test_prelude.kernel test_prelude$002Ekernel__f64a1C void(float64[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float64, 1d, C)
# CHECK:STDOUT: device test_prelude.twice pykc_device__test_prelude$002Etwice__f64 float64(float64)
# CHECK:STDOUT:   v: float64
