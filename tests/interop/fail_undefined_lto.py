# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t --lto
# With --lto pykc cannot look into the LTO-IR: nvJitLink's undefined reference is
# reported at the declaration.
import os

from numba import cuda

OPS = os.path.join(os.path.dirname(__file__), "inputs", "ops.cu")
mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link=OPS)
# CHECK:STDERR: fail_undefined_lto.py:[[@LINE+5]]:8: error: `not_in_ops` is declared here but no linked file defines it (nvJitLink: undefined reference) [undefined-extern]
# CHECK:STDERR: gone = cuda.declare_device("not_in_ops", "float32(float32)", link=OPS)
# CHECK:STDERR:        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: pykc: note: numba's ABI expects `extern "C" __device__ int not_in_ops(float* return_value, float)`
# CHECK:STDERR:
gone = cuda.declare_device("not_in_ops", "float32(float32)", link=OPS)


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = gone(mul(x[0], x[1]))
