# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t --nvrtc-option=-DNEED_ME=2
# --nvrtc-option reaches NVRTC as is: needs_define.cu compiles (without it, see
# fail_needs_define.py).
import os

from numba import cuda

twice = cuda.declare_device("twice", "int32(int32)",
                            link=os.path.join(os.path.dirname(__file__), "inputs", "needs_define.cu"))


@cuda.jit("void(int32[::1])")
def k(x):
    x[0] = twice(x[0])
