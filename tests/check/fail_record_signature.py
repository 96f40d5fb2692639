# ARGS: --diag-kinds compile %s --phase=check --sig=k(Record(a[type=float32;offset=0],b[type=int64;offset=4];8;False)[::1])
"""A record type in a signature whose fields do not fit its size is refused."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(v):
    pass
# CHECK:STDERR: pykc: error: invalid `--sig 'k(Record(a[type=float32;offset=0],b[type=int64;offset=4];8;False)[::1])'`: record field `b` does not fit in 8 bytes [invalid-signature]
# CHECK:STDERR:
