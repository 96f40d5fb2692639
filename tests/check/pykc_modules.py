# ARGS: --diag-kinds compile %s --phase=check --dump-typed --const TILE=256
"""pykc's own modules name numba's and cuTile's APIs (issue 19): `from pykc import cuda`
is numba.cuda and `pykc.tile` is cuda.tile, so kernels written for pykc's JIT compile as
the numba and cuTile kernels they are."""
import pykc.tile as ct
from pykc import cuda

ConstInt = ct.Constant[int]


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@ct.kernel
def tile_scale(x: "float32[::1]", a: float, TILE: ConstInt):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=t * a)
# CHECK:STDOUT: kernel scale scale__f32a1C_f32 void(float32[::1], float32)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel tile_scale tile_scale__f32a1C_f32__KTILE_256 void(float32[::1], float32, TILE=256)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   t: tile(float32, (256,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
