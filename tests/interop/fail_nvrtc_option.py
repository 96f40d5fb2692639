# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t --nvrtc-option=--no-such-option
# EXIT: 2
# An option NVRTC refuses: its message, and the command-line exit status.
import os

from numba import cuda

mul = cuda.declare_device("mul_f32", "float32(float32, float32)",
                          link=os.path.join(os.path.dirname(__file__), "inputs", "ops.cu"))


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = mul(x[0], x[1])
# CHECK:STDERR: pykc: error: NVRTC refuses an option for `inputs/ops.cu`: nvrtc: error: unrecognized option --no-such-option found
