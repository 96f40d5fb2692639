import os

from numba import cuda

twice = cuda.declare_device("twice", "int32(int32)",
                            link=os.path.join(os.path.dirname(__file__), "inputs", "needs_define.cu"))


@cuda.jit("void(int32[::1])")
def k(x):
    x[0] = twice(x[0])
# CHECK:STDERR: inputs/needs_define.cu:3:2: error: fatal: #error directive: "compile with -D NEED_ME=1" [cuda-error]
# CHECK:STDERR: #error "compile with -D NEED_ME=1"
# CHECK:STDERR:  ^~~~~
# CHECK:STDERR:
