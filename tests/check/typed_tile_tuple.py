# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig=grouped(UniTuple(float16[:,::1],2),Tuple(float32[::1],int32),int64) --sig=hinted(float32[::1],float32[::1],int64,float32)
# Tuples of arrays and numbers as tile kernel parameters: `len` is a constant, a constant
# index takes any element (negative and nested too), a run-time index needs elements of
# one type; tuples of numbers held in variables. cuTile's hint annotations (`ct.Array`,
# `ct.IndexedWithInt64`, `tuple[...]`, `Annotated[...]`, other libraries' classes) name no
# type: such parameters take theirs from --sig; `ct.ScalarInt64` is an int64 scalar.
# `array.shape` and `array.strides` are tuples of int32. Annotated assignments
# (`half: ConstInt = TILE // 2`) assign; their annotations are the reader's.
from typing import Annotated

import cuda.tile as ct
import torch

ConstInt = ct.Constant[int]
Strided = Annotated[ct.Array, "static strides"]


@ct.kernel
def grouped(As, pair, g, TILE: ConstInt = 16):
    n: int = len(As)
    half: ConstInt = TILE // 2
    a = As[g % n]
    b = As[-1]
    idx = (ct.bid(0), 0)
    rows, cols = b.shape
    st = b.strides
    t = ct.load(a, index=idx, shape=(TILE, TILE)) + ct.load(b, index=idx, shape=(TILE, TILE))
    v = ct.load(pair[0], index=(0,), shape=(half * 2,)) * pair[1]
    ct.store(pair[0], index=(0,), tile=v + ct.sum(ct.astype(t, ct.float32), axis=0))


@ct.kernel
def hinted(x: ct.IndexedWithInt64, y: Strided, n: ct.ScalarInt64, s: torch.Tensor):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) * s + n)
# CHECK:STDOUT: kernel grouped grouped__t2f16a2Cf16a2C_t2f32a1Ci32_i64__KTILE_16 void(Tuple(float16[:, ::1], float16[:, ::1]), Tuple(float32[::1], int32), int64, TILE=16)
# CHECK:STDOUT:   As: UniTuple(array(float16, 2d, C) x 2)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   a: array(float16, 2d, C)
# CHECK:STDOUT:   b: array(float16, 2d, C)
# CHECK:STDOUT:   cols: int32
# CHECK:STDOUT:   g: int64
# CHECK:STDOUT:   half: int64
# CHECK:STDOUT:   idx: UniTuple(int32 x 2)
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   pair: Tuple(array(float32, 1d, C), int32)
# CHECK:STDOUT:   rows: int32
# CHECK:STDOUT:   st: UniTuple(int32 x 2)
# CHECK:STDOUT:   t: tile(float16, (16, 16))
# CHECK:STDOUT:   v: tile(float32, (16,))
# CHECK:STDOUT: kernel hinted hinted__f32a1C_f32a1C_i64_f32 void(float32[::1], float32[::1], int64, float32)
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   s: float32
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
