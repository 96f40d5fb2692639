# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig launched(float32[::1])
"""Default parameter values (issue 21: OpenPCDet's `devRotateIoUEval(rbox1, rbox2,
criterion=-1)`). A call that leaves an argument out passes its default, as numba's
`omitted(default=...)` does: the value is typed as Python's (int64 for -1), folded into
that specialisation (its `if` on the value keeps one branch, as numba prunes it), and is
no parameter of the compiled function. A launch's `--sig` may leave out defaulted
parameters too; a complete signature ignores the defaults."""
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def iou(a, b, criterion=-1):
    if criterion == -1:
        return a + b
    elif criterion == 0:
        return a
    return b


@cuda.jit(device=True)
def scaled(x, scale=np.float32(0.5), offset=(1, 2), out=None):
    if out is None:
        return x * scale if offset[0] == 1 else x
    # Dead where `out` is left out: never typed (numba prunes it too).
    out[0] = x
    return x


@cuda.jit("(float32[:], float32)", device=True)
def declared(v, weight=-1.0):
    # A declared signature: the default is converted to its type (float32).
    return v[0] * weight


@cuda.jit("void(int64, float32[::1], int32)")
def eager(n, x, criterion=-1):
    # A complete signature: `criterion` is an int32 argument.
    x[0] = iou(x[0], x[1], criterion)


@cuda.jit
def launched(x, criterion=2, flag=True):
    x[0] = iou(x[0], x[1])
    x[1] = iou(x[0], x[1], criterion=0)
    x[2] = scaled(x[2])
    x[3] = declared(x)
    if flag:
        x[4] = criterion
# CHECK:STDOUT: kernel eager eager__i64_f32a1C_i32 void(int64, float32[::1], int32)
# CHECK:STDOUT:   criterion: int32
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel launched launched__f32a1C__Kcriterion_2__Kflag_T void(float32[::1], criterion=2, flag=True)
# CHECK:STDOUT:   criterion: int64
# CHECK:STDOUT:   flag: bool
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device iou pykc_device__iou__f32_f32_i32 float32(float32, float32, int32)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float32
# CHECK:STDOUT:   criterion: int32
# CHECK:STDOUT: device iou pykc_device__iou__f32_f32__Kcriterion_n0p1 float32(float32, float32, criterion=-1)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float32
# CHECK:STDOUT:   criterion: int64
# CHECK:STDOUT: device iou pykc_device__iou__f32_f32_i64 float32(float32, float32, int64)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float32
# CHECK:STDOUT:   criterion: int64
# CHECK:STDOUT: device scaled pykc_device__scaled__f32__Kscale_x3fe0000000000000__Koffset_u__Kout_u float32(float32, scale=0.5, offset=(1, 2), out=None)
# CHECK:STDOUT:   offset: UniTuple(int64 x 2)
# CHECK:STDOUT:   scale: float32
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT: device declared pykc_device__declared__f32a1A__Kweight_xbff0000000000000 float32(float32[:], weight=-1.0)
# CHECK:STDOUT:   v: array(float32, 1d, A)
# CHECK:STDOUT:   weight: float32
