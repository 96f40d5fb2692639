# ARGS: --diag-kinds compile %s --phase=check
"""An integer literal past uint64 has no numba type."""
from numba import cuda


@cuda.jit("void(uint64[::1])")
def too_big(u):
    # CHECK:STDERR: fail_uint64_literals.py:[[@LINE+4]]:12: error: integer literal `18446744073709551616` does not fit in uint64 [unsupported-construct]
    # CHECK:STDERR:     u[0] = 18446744073709551616
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    u[0] = 18446744073709551616
