from numba import cuda

# CHECK:STDERR: fail_link_missing.py:[[@LINE+4]]:72: error: cannot read `no/such/ops.cu` to link it: No such file or directory [link-file]
# CHECK:STDERR: mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link="no/such/ops.cu")
# CHECK:STDERR:                                                                        ^~~~~~~~~~~~~~~~
# CHECK:STDERR:
mul = cuda.declare_device("mul_f32", "float32(float32, float32)", link="no/such/ops.cu")


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = mul(x[0], x[0])
