# ARGS: --diag-kinds compile %s --phase=check --dump-typed --kernel good
# A kernel filter: only `good` is checked, so the type error in `bad` neither
# shows nor fails the compile (fail_kernel_filter_all.py compiles the whole file).
from numba import cuda


@cuda.jit("void(float32[::1])")
def good(x):
    i = cuda.grid(1)
    if i < x.size:
        # CHECK:STDERR: kernel_filter.py:[[@LINE+7]]:16: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 * float64` computes in float64 [float64-arithmetic]
        # CHECK:STDERR:         x[i] = x[i] * 2.0
        # CHECK:STDERR:                ^~~~~~~~~~
        # CHECK:STDERR: kernel_filter.py:[[@LINE+4]]:23: note: `2.0` is a float64 literal; write `float32(2.0)` to compute in float32
        # CHECK:STDERR:         x[i] = x[i] * 2.0
        # CHECK:STDERR:                       ^~~
        # CHECK:STDERR:
        x[i] = x[i] * 2.0


@cuda.jit("void(float32, float32[::1])")
def bad(a, x):
    x[0] = a[0]


@cuda.jit("float32(float32)", device=True)
def unused_helper(v):
    return v[0]

# CHECK:STDOUT: kernel good good__f32a1C void(float32[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
