# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Integer literals from 2**63 to 2**64 - 1 are uint64, as numba types them (issue 21
item 2), in kernels and as module constants; larger ones are an error."""
from numba import cuda

HIGH_BIT = 0x8000000000000000


@cuda.jit("void(int64[::1], uint64[::1])")
def masks(x, u):
    SIGN_MASK = 0x8000000000000000
    x[0] = x[0] & SIGN_MASK
    u[0] = u[0] | HIGH_BIT | 18446744073709551615
# CHECK:STDOUT: kernel masks masks__i64a1C_u64a1C void(int64[::1], uint64[::1])
# CHECK:STDOUT:   SIGN_MASK: uint64
# CHECK:STDOUT:   u: array(uint64, 1d, C)
# CHECK:STDOUT:   x: array(int64, 1d, C)
