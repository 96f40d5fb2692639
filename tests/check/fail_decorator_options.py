# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


# CHECK:STDERR: fail_decorator_options.py:[[@LINE+12]]:45: warning: `opt=False` applies to the whole file in pykc: pass `-O0` to compile without optimisation [unsupported-option]
# CHECK:STDERR: @cuda.jit("void(float32[::1])", debug=True, opt=False, lto=True, colour=1)
# CHECK:STDERR:                                             ^~~~~~~~~
# CHECK:STDERR:
# CHECK:STDERR: fail_decorator_options.py:[[@LINE+8]]:56: error: `lto=` is not supported by pykc yet [unsupported-option]
# CHECK:STDERR: @cuda.jit("void(float32[::1])", debug=True, opt=False, lto=True, colour=1)
# CHECK:STDERR:                                                        ^~~~~~~~
# CHECK:STDERR:
# CHECK:STDERR: fail_decorator_options.py:[[@LINE+4]]:66: error: unknown `cuda.jit` option `colour` [invalid-decorator]
# CHECK:STDERR: @cuda.jit("void(float32[::1])", debug=True, opt=False, lto=True, colour=1)
# CHECK:STDERR:                                                                  ^~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(float32[::1])", debug=True, opt=False, lto=True, colour=1)
def k(x):
    x[0] = 1
