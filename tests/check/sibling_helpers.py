# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Helpers imported from sibling modules (`from sibling.tile_helpers import twice_plus`,
relative `from .sibling.simt_helpers import clamp`) are pasted in with what they use from
their own modules (their helpers, constants, imports, and in turn their own sibling
imports: LIMIT comes from sibling/limits.py); the helper modules' kernels are not."""
import cuda.tile as ct
from numba import cuda

from sibling.tile_helpers import twice_plus
from .sibling.simt_helpers import clamp

ConstInt = ct.Constant[int]


@ct.kernel
def tile_kernel(x: "float32[::1]", TILE: ConstInt = 16):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=twice_plus(t))


@cuda.jit("void(float32[::1])")
def simt_kernel(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = clamp(x[i])
# CHECK:STDERR: sibling/simt_helpers.py:11:12: warning: float64 arithmetic in a kernel whose arrays are float32: `float64 * float64` computes in float64 [float64-arithmetic]
# CHECK:STDERR:     return min(max(v, -LIMIT), LIMIT) * math.pi
# CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: sibling/simt_helpers.py:11:12: note: `min(max(v, -LIMIT), LIMIT)` is `float64`; convert it with `float32(...)` to compute in float32
# CHECK:STDERR:     return min(max(v, -LIMIT), LIMIT) * math.pi
# CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
# CHECK:STDOUT: kernel tile_kernel tile_kernel__f32a1C__KTILE_16 void(float32[::1], TILE=16)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   t: tile(float32, (16,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel simt_kernel simt_kernel__f32a1C void(float32[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device twice_plus twice_plus__Tf32x16 tile(float32, (16,))(tile(float32, (16,)))
# CHECK:STDOUT:   t: tile(float32, (16,))
# CHECK:STDOUT: device clamp pykc_device__clamp__f32 float64(float32)
# CHECK:STDOUT:   v: float32
# CHECK:STDOUT: device _twice _twice__Tf32x16 tile(float32, (16,))(tile(float32, (16,)))
# CHECK:STDOUT:   t: tile(float32, (16,))
