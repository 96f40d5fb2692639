# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def k(x, f):
    # CHECK:STDERR: fail_operand_types.py:[[@LINE+4]]:9: error: unsupported operand types for `<<`: `float32` and `int64` [mismatched-operand-types]
    # CHECK:STDERR:     a = f << 2
    # CHECK:STDERR:         ^~~~~~
    # CHECK:STDERR:
    a = f << 2
    # CHECK:STDERR: fail_operand_types.py:[[@LINE+5]]:9: error: unsupported operand types for `+`: `array(float32, 1d, C)` and `int64` [mismatched-operand-types]
    # CHECK:STDERR:     b = x + 1
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR: pykc: note: array expressions are not supported in kernels: compute element by element
    # CHECK:STDERR:
    b = x + 1
    # CHECK:STDERR: fail_operand_types.py:[[@LINE+4]]:9: error: unsupported operand type for `-`: `array(float32, 1d, C)` [mismatched-operand-types]
    # CHECK:STDERR:     c = -x
    # CHECK:STDERR:         ^~
    # CHECK:STDERR:
    c = -x
    # CHECK:STDERR: fail_operand_types.py:[[@LINE+4]]:9: error: unsupported operand types for `@`: `float32` and `float32` [mismatched-operand-types]
    # CHECK:STDERR:     d = f @ f
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR:
    d = f @ f
