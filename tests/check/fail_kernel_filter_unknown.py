# ARGS: --diag-kinds compile %s --phase=check --kernel missing
# EXIT: 2
# A kernel filter naming no kernel of the file is a usage error.
from numba import cuda


@cuda.jit("void(float32[::1])")
def good(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: `missing` is not a kernel of `fail_kernel_filter_unknown.py`; its kernels: good
