# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(int32[()]) --sig s(float32[()],float32[::1])
"""0-d arrays (a 0-d NumPy array or torch tensor, as cuTile's tests pass them): `--sig`
spells them `int32[()]`; tile kernels gather/scatter/load at `()`, SIMT kernels index `x[()]`."""
import cuda.tile as ct
from numba import cuda


@ct.kernel
def k(x):
    val = ct.gather(x, ())
    ct.scatter(x, (), val + 1)


@cuda.jit
def s(x, out):
    # CHECK:STDERR: zero_d_arrays.py:[[@LINE+7]]:14: warning: float64 arithmetic in a kernel whose arrays are float32: `float32 * int64` computes in float64 [float64-arithmetic]
    # CHECK:STDERR:     out[0] = x[()] * 2
    # CHECK:STDERR:              ^~~~~~~~~
    # CHECK:STDERR: zero_d_arrays.py:[[@LINE+4]]:22: note: `2` is a int64 literal; write `float32(2)` to compute in float32
    # CHECK:STDERR:     out[0] = x[()] * 2
    # CHECK:STDERR:                      ^
    # CHECK:STDERR:
    out[0] = x[()] * 2
# CHECK:STDOUT: kernel k k__i32a0C void(int32[()])
# CHECK:STDOUT:   val: int32
# CHECK:STDOUT:   x: array(int32, 0d, C)
# CHECK:STDOUT: kernel s s__f32a0C_f32a1C void(float32[()], float32[::1])
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   x: array(float32, 0d, C)
