# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Kernels under import guards (issue 21: NVTabular's column_similarity.py). A library's
compatibility module re-exports numba.cuda, CuPy or NumPy, or None where they are missing
(`from merlin.core.compat import cuda, cupy`); pykc compiles for CUDA, where they import,
so the names are the libraries, modules are true, and `if cuda:` / `... if cuda else None`
take the GPU branch."""
import numba
from merlin.core.compat import cuda, cupy

if cuda:

    @numba.cuda.jit("void(float64[::1], float64[::1])")
    def scale(a, out):
        i = numba.cuda.grid(1)
        if i < a.size:
            out[i] = _double_gpu(a[i]) * FACTOR


def _double(x):
    return x * 2.0


_double_gpu = numba.cuda.jit(device=True, inline=True)(_double) if cuda else None

if not cupy:
    FACTOR = 1.0
elif cupy is not None:
    FACTOR = 3.0
# CHECK:STDOUT: kernel scale scale__f64a1C_f64a1C void(float64[::1], float64[::1])
# CHECK:STDOUT:   a: array(float64, 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   out: array(float64, 1d, C)
# CHECK:STDOUT: device _double pykc_device___double__f64 float64(float64)
# CHECK:STDOUT:   x: float64
