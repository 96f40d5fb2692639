"""numba idioms of real code (issue 21), fourth file: default parameter values (a device
function called with and without its defaulted argument, a kernel launched without its
defaulted one, as OpenPCDet's rotate_iou kernels are), a shared array sized by a local
constant (second.pytorch), complex constants (`1j`, `np.complex64(...)`: PyLops), and
`breakpoint()` (a no-op without debug=True). tests/gpu/cases/api_cases10.py runs each kernel
here and numba-cuda's own on the same inputs, and wants the same bytes.

Compile: bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels10.py sm_90 <root>/api_kernels10
"""
# pykc-compile: --sig iou_like(float32[::1],float32[::1])
# pykc-compile: --sig iou_like_reference(float32[::1],float32[::1])
# pykc-compile: --sig block_sums(float32[::1],float32[::1])
# pykc-compile: --sig rotate(complex64[::1],complex64[::1])
import math

import numpy as np
from numba import cuda

IMG = 1j
TWIST = np.complex64(0.5 - 0.25j)


@cuda.jit(device=True)
def area(a, b, criterion=-1):
    if criterion == -1:
        return a * b
    return a + b * criterion


@cuda.jit
def iou_like(x, out, criterion=-1):
    i = cuda.grid(1)
    if i < x.size:
        breakpoint()
        out[i] = area(x[i], x[i] + 1, criterion) + area(x[i], 2.0) + area(x[i], 3.0, 2)


@cuda.jit
def iou_like_reference(x, out, criterion=-1):
    # iou_like without its breakpoint(), for numba-cuda's run: numba-cuda lowers
    # breakpoint() to PTX `brkpt`, which without a debugger attached ends the launch with
    # CUDA_ERROR_LAUNCH_FAILED (seen on an H100); pykc's breakpoint() is a no-op.
    i = cuda.grid(1)
    if i < x.size:
        out[i] = area(x[i], x[i] + 1, criterion) + area(x[i], 2.0) + area(x[i], 3.0, 2)


@cuda.jit
def block_sums(x, out):
    threads = 8 * 8
    buf = cuda.shared.array(shape=(threads * 2,), dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * threads + t
    buf[t] = x[i] if i < x.size else 0.0
    buf[t + threads] = 1.0
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(threads * 2):
            s += buf[k]
        out[cuda.blockIdx.x] = s


@cuda.jit
def rotate(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = z[i] * IMG * TWIST + math.pi
