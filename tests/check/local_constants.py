# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Locals bound once to a constant expression are constants, as numba's constant
inference takes them (issue 21: second.pytorch's `threadsPerBlock = 8 * 8` sizes a
shared array): they may size shared and local arrays, and an `if` on a constant
condition keeps only the branch it takes (numba's dead-branch pruning), so the other
is neither typed nor compiled."""
import numpy as np
from numba import cuda

TPB = 16
DEBUG = False


@cuda.jit("void(float32[:, ::1])")
def nms(boxes):
    threadsPerBlock = 8 * 8
    rows = threadsPerBlock * 5
    shape = (threadsPerBlock, 5)
    block = cuda.shared.array(shape=shape, dtype=np.float32)
    flat = cuda.shared.array(shape=(rows,), dtype=np.float32)
    scratch = cuda.local.array(TPB // 4 + 1, np.float32)
    tx = cuda.threadIdx.x
    block[tx, 0] = boxes[tx, 0]
    flat[tx] = block[tx, 0]
    scratch[0] = rows
    if DEBUG:
        # Pruned: never typed (numba would not type it either).
        print("debug", boxes.nonexistent)
    boxes[tx, 1] = flat[tx] + scratch[0]


@cuda.jit("void(float32[::1])")
def typed_constants(x):
    # NumPy scalars keep their type: float32 * float32 is float32, computed on the GPU.
    a = np.float32(1.5)
    b = np.float32(2.0)
    c = a * b
    # A name bound twice is a variable, not a constant.
    n = 4
    n = n + 1
    x[0] = c
    x[1] = n
# CHECK:STDOUT: kernel nms nms__f32a2C void(float32[:, ::1])
# CHECK:STDOUT:   block: array(float32, 2d, C)
# CHECK:STDOUT:   boxes: array(float32, 2d, C)
# CHECK:STDOUT:   flat: array(float32, 1d, C)
# CHECK:STDOUT:   rows: int64
# CHECK:STDOUT:   scratch: array(float32, 1d, C)
# CHECK:STDOUT:   shape: UniTuple(int64 x 2)
# CHECK:STDOUT:   threadsPerBlock: int64
# CHECK:STDOUT:   tx: int32
# CHECK:STDOUT: kernel typed_constants typed_constants__f32a1C void(float32[::1])
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float32
# CHECK:STDOUT:   c: float32
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
