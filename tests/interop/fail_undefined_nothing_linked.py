from numba import cuda

# CHECK:STDERR: fail_undefined_nothing_linked.py:[[@LINE+5]]:10: error: `lonely` is declared here but no linked file defines it (nothing is linked: add `link="file.cu"` or `--link`) [undefined-extern]
# CHECK:STDERR: lonely = cuda.declare_device("lonely", "float32(float32)")
# CHECK:STDERR:          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR: pykc: note: numba's ABI expects `extern "C" __device__ int lonely(float* return_value, float)`
# CHECK:STDERR:
lonely = cuda.declare_device("lonely", "float32(float32)")


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = lonely(x[0])
