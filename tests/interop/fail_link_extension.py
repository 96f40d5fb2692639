from numba import cuda

# CHECK:STDERR: fail_link_extension.py:[[@LINE+4]]:72: error: cannot link `ops.txt`: pykc links `.cu`, `.ptx`, `.ltoir`, `.cubin`, `.fatbin`, `.o` and `.a` files [invalid-link]
# CHECK:STDERR: mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link="ops.txt")
# CHECK:STDERR:                                                                        ^~~~~~~~~
# CHECK:STDERR:
mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link="ops.txt")


# CHECK:STDERR: fail_link_extension.py:[[@LINE+8]]:39: error: cannot link `kernel.cpp`: pykc links `.cu`, `.ptx`, `.ltoir`, `.cubin`, `.fatbin`, `.o` and `.a` files [invalid-link]
# CHECK:STDERR: @cuda.jit("void(float32[::1])", link=["kernel.cpp", 42])
# CHECK:STDERR:                                       ^~~~~~~~~~~~
# CHECK:STDERR:
# CHECK:STDERR: fail_link_extension.py:[[@LINE+4]]:53: error: pykc cannot compute this `link=` path at compile time: write a string, or `os.path.join(os.path.dirname(__file__), "file.cu")` [invalid-link]
# CHECK:STDERR: @cuda.jit("void(float32[::1])", link=["kernel.cpp", 42])
# CHECK:STDERR:                                                     ^~
# CHECK:STDERR:
@cuda.jit("void(float32[::1])", link=["kernel.cpp", 42])
def k(x):
    x[0] = mul(x[0], x[0])
