# ARGS: cache populate %s --arch sm_80,sm_90 --cache-dir %t --link %d/inputs/ops.cu --nvrtc-option=--no-such-option
# EXIT: 2
# MASK: \d+\.\d\d s$
# MASK: [^\s`]*tests/cache/populate/
# An option NVRTC refuses: its message once (not per arch), and the
# command-line exit status, as `pykc compile` has them.
from numba import cuda

mul = cuda.declare_device("mul_f32", "float32(float32, float32)")


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = mul(x[0], x[1])
# CHECK:STDERR: pykc: error: NVRTC refuses an option for `[[MASKED]]inputs/ops.cu`: nvrtc: error: unrecognized option --no-such-option found
# CHECK:STDOUT: populate: 2 jobs, 0 hits, 0 compiled, 2 failed, [[MASKED]]
