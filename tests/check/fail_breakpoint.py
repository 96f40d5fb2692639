# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


# CHECK:STDERR: fail_breakpoint.py:[[@LINE+4]]:43: warning: `opt=False` applies to the whole file in pykc: pass `-O0` to compile without optimisation [unsupported-option]
# CHECK:STDERR: @cuda.jit("void(int64[::1])", debug=True, opt=False)
# CHECK:STDERR:                                           ^~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(int64[::1])", debug=True, opt=False)
def k(x):
    # CHECK:STDERR: fail_breakpoint.py:[[@LINE+4]]:5: error: `breakpoint` takes no arguments, found 1 [wrong-arg-count]
    # CHECK:STDERR:     breakpoint(1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~
    # CHECK:STDERR:
    breakpoint(1)
    # CHECK:STDERR: fail_breakpoint.py:[[@LINE+4]]:5: error: `breakpoint` takes no arguments in kernels [invalid-call]
    # CHECK:STDERR:     breakpoint(header="stop")
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    breakpoint(header="stop")
    # CHECK:STDERR: fail_breakpoint.py:[[@LINE+4]]:9: error: cannot assign `None` (a call without a result?) to `y` [invalid-assignment]
    # CHECK:STDERR:     y = breakpoint()
    # CHECK:STDERR:         ^~~~~~~~~~~~
    # CHECK:STDERR:
    y = breakpoint()
    x[0] = y
