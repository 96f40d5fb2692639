# ARGS: --diag-kinds compile %s --phase=check
# debug=True kernels report assert/raise to the host: messages must be string
# literals and exceptions plain names.
from numba import cuda

MSG = "x"


@cuda.jit("void(float32[::1])", debug=True)
def k(x):
    # CHECK:STDERR: fail_debug_raise.py:[[@LINE+4]]:22: error: an assertion message must be a string literal in kernels [unsupported-construct]
    # CHECK:STDERR:     assert x[0] > 0, MSG
    # CHECK:STDERR:                      ^~~
    # CHECK:STDERR:
    assert x[0] > 0, MSG
    # CHECK:STDERR: fail_debug_raise.py:[[@LINE+4]]:5: error: with `debug=True` kernels raise `ExceptionName`, `ExceptionName()` or `ExceptionName("a string literal")` [unsupported-construct]
    # CHECK:STDERR:     raise ValueError("bad", 1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    raise ValueError("bad", 1)
    # CHECK:STDERR: fail_debug_raise.py:[[@LINE+4]]:5: error: with `debug=True` kernels raise `ExceptionName`, `ExceptionName()` or `ExceptionName("a string literal")` [unsupported-construct]
    # CHECK:STDERR:     raise x[0]
    # CHECK:STDERR:     ^~~~~~~~~~
    # CHECK:STDERR:
    raise x[0]


@cuda.jit("void(float32[::1])")
def not_debug(x):
    # Without debug=True numba ignores both (no diagnostics).
    assert x[0] > 0, MSG
    raise ValueError("bad", 1)
