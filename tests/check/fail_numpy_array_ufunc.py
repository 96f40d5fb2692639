# ARGS: --diag-kinds compile %s --phase=check
# A NumPy ufunc on whole arrays inside a kernel (numba-cuda's ex_cuda_ufunc example) is
# not compiled yet: the error says so and how to write it per element.
import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def f(r, x):
    # CHECK:STDERR: fail_numpy_array_ufunc.py:[[@LINE+4]]:5: error: `np.sin` on arrays is not supported in kernels yet: call it per element (`out[i] = np.sin(x[i])`) [unsupported-construct]
    # CHECK:STDERR:     np.sin(x, r)
    # CHECK:STDERR:     ^~~~~~~~~~~~
    # CHECK:STDERR:
    np.sin(x, r)
