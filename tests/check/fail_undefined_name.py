# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_undefined_name.py:[[@LINE+4]]:12: error: name `undefined_thing` is not defined [undefined-name]
    # CHECK:STDERR:     x[0] = undefined_thing + 1
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[0] = undefined_thing + 1
