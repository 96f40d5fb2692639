# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""CuPy's constants and dtypes in kernels are NumPy's (`cp.nan`, `cp.inf`, `cp.float32`),
which numba freezes (issue 21/22: cuxfilter's kernels store `cp.nan`)."""
import cupy as cp
from numba import cuda


@cuda.jit("void(float32[:, ::1])")
def fill(result):
    i = cuda.grid(1)
    if i < result.shape[0]:
        result[i, 0] = cp.nan
        # CHECK:STDERR: cupy_constants.py:[[@LINE+7]]:24: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 + float64` computes in float64 [float64-arithmetic]
        # CHECK:STDERR:         result[i, 1] = cp.float32(cp.pi) + cp.inf
        # CHECK:STDERR:                        ^~~~~~~~~~~~~~~~~~~~~~~~~~
        # CHECK:STDERR: cupy_constants.py:[[@LINE+4]]:44: note: `cp.inf` is `float64`; convert it with `float32(...)` to compute in float32
        # CHECK:STDERR:         result[i, 1] = cp.float32(cp.pi) + cp.inf
        # CHECK:STDERR:                                            ^~~~~~
        # CHECK:STDERR:
        result[i, 1] = cp.float32(cp.pi) + cp.inf
# CHECK:STDOUT: kernel fill fill__f32a2C void(float32[:, ::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   result: array(float32, 2d, C)
