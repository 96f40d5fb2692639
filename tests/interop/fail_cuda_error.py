import os

from numba import cuda

broken = cuda.declare_device("broken", "float32(float32)",
                             link=os.path.join(os.path.dirname(__file__), "inputs", "bad.cu"))


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = broken(x[0])
# CHECK:STDERR: inputs/bad.cu:3:23: error: identifier "undefined_y" is undefined [cuda-error]
# CHECK:STDERR:   *return_value = x * undefined_y;
# CHECK:STDERR:                       ^~~~~~~~~~~
# CHECK:STDERR:
