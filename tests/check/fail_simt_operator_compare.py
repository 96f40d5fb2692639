# ARGS: --diag-kinds compile %s --phase=check
# Python's operator comparisons are cuTile's comparison functions in tile kernels
# (typed_tile_misc25.py); numba kernels do not take them yet.
import operator
from numba import cuda


@cuda.jit("void(int32[::1])")
def k(x):
    # CHECK:STDERR: fail_simt_operator_compare.py:[[@LINE+4]]:12: error: `operator.gt` is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     x[0] = operator.gt(x[1], x[2])
    # CHECK:STDERR:            ^~~~~~~~~~~
    # CHECK:STDERR:
    x[0] = operator.gt(x[1], x[2])
    x[3] = operator.add(x[1], x[2])
