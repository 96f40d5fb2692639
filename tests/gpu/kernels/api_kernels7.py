"""numba idioms of real code (issue 21), each from a file of tests/realworld_numba/corpus:
`@numba.jit`/`@njit` functions called from kernels (numba-examples' histogram, gpu-bdb),
module-level `try` imports and `if` gates on constants and on numba's version (datashader,
advent-of-numba), a sibling module imported as an object (stumpy's `from . import core`),
uint64 literals (accelerated-computing-hub), an array's `dtype` as a shared array's
(NeMo). tests/gpu/cases/api_cases7.py runs every kernel here and the same file imported
by numba-cuda itself on the same inputs, and wants the same bytes.

Compile: pykc compile tests/gpu/kernels/api_kernels7.py --arch sm_90 -o <root>/api_kernels7
"""
import numba
import numpy as np
from numba import cuda, njit
from packaging.version import Version

from helpers import simt_core

try:
    from math import nan
except ImportError:
    nan = float("nan")

if Version(numba.__version__) >= Version("0.51.0"):
    @cuda.jit(device=True)
    def atomic_nanmax(ary, idx, val):
        return cuda.atomic.nanmax(ary, idx, val)
elif Version(numba.__version__) <= Version("0.49.1"):
    @cuda.jit(device=True)
    def atomic_nanmax(ary, idx, val):
        return cuda.atomic.max(ary, idx, val)
else:
    raise ImportError("needs numba != 0.50")

USE_EXAMPLE = False
if USE_EXAMPLE:
    PREAMBLE = 5
else:
    PREAMBLE = 25

HIGH_BIT = 0x8000000000000000
BLOCK = 128


@numba.jit(nopython=True)
def compute_bin(x, n, xmin, xmax):
    # numba-examples' histogram: a CPU function numba-cuda compiles for the device.
    b = np.int32(n * (np.float64(x) - np.float64(xmin)) / (np.float64(xmax) - np.float64(xmin)))
    return min(max(b, 0), n - 1)


@njit(fastmath=False)
def twice(v):
    return v + v


@cuda.jit("void(float32[::1], float32, float32, int32[::1])")
def histogram(x, xmin, xmax, counts):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(counts, compute_bin(x[i], counts.shape[0], xmin, xmax), 1)


@cuda.jit("void(float64[::1], float64[::1], int64[::1], float64[::1])")
def module_objects(sorted_values, x, where, y):
    i = cuda.grid(1)
    if i < x.size:
        where[i] = simt_core.searchsorted_right(sorted_values, x[i]) + simt_core.OFFSET
        y[i] = twice(max(x[i], simt_core.THRESHOLD))


@cuda.jit("void(int64[::1], uint64[::1])")
def uint64_masks(x, u):
    i = cuda.grid(1)
    if i < x.size:
        SIGN_MASK = 0x8000000000000000
        x[i] = x[i] & SIGN_MASK
        u[i] = (u[i] | HIGH_BIT) ^ 0xFFFFFFFF00000000


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def gates_and_dtypes(acts, out, peak):
    storage = cuda.shared.array(shape=(BLOCK,), dtype=acts.dtype)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    storage[t] = acts[i] if i < acts.size else nan
    cuda.syncthreads()
    if i < acts.size:
        out[i] = storage[BLOCK - 1 - t] + PREAMBLE
        atomic_nanmax(peak, 0, storage[t])


@cuda.jit(device=True, forceinline=True)
def copy_with_sign(x: np.float64, sign: np.int32) -> np.float64:
    # accelerated-computing-hub's emulation_utils: a float taken apart through `.view`.
    SIGN_MASK = 0x8000000000000000
    bits = (x.view(np.int64) & ~SIGN_MASK) | (np.int64(sign) << 63)
    return bits.view(np.float64)


@cuda.jit("void(float64[::1], int32[::1], float32[::1], uint32[::1])")
def scalar_views(x, s, f, u):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = copy_with_sign(x[i], s[i])
        u[i] = f[i].view(np.uint32)
