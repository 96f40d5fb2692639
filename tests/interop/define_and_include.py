# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t -D NEED_ME=1 -I %d/inputs/inc --lto
# -D reaches NVRTC (and the module: NEED_ME is a constant here too), -I finds
# extra.h, --lto compiles both .cu files to LTO-IR.
import os

from numba import cuda

HERE = os.path.dirname(__file__)
twice = cuda.declare_device("twice", "int32(int32)", link=os.path.join(HERE, "inputs", "needs_define.cu"))
add_extra = cuda.declare_device("add_extra", "float32(float32)",
                                link=os.path.join(HERE, "inputs", "uses_include.cu"))


@cuda.jit("void(int32[::1], float32[::1])")
def k(x, y):
    x[0] = twice(x[0]) + NEED_ME
    y[0] = add_extra(y[0])
