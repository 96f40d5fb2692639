# ARGS: --diag-kinds compile %s --phase=check
# A dataclass written in a signature (`Class(field types)`) is for tile kernels only
# (docs/TILE.md, "Dataclasses"): numba kernels refuse it as numba does an unknown type.
from numba import cuda


# CHECK:STDERR: fail_dataclass_sig_simt.py:[[@LINE+4]]:11: error: unknown type `Foo` in signature [invalid-signature]
# CHECK:STDERR: @cuda.jit("void(Foo(int32), float32[::1])")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(Foo(int32), float32[::1])")
def k(a, x):
    x[0] = a[0]
