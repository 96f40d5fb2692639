# ARGS: --diag-kinds compile %s --phase=check
# A cuTile dtype that needs an architecture pykc does not target: one clear error (cuTile's own
# check_dtype_support rejects float8_e5m3fnu below sm_107 as well).
import cuda.tile as ct


@ct.kernel
def full_e5m3(x: "float32[::1]", TILE: ct.Constant[int] = 128):
    # CHECK:STDERR: fail_tile_dtype_arch.py:[[@LINE+4]]:32: error: `ct.float8_e5m3fnu` (unsigned E5M3) is not supported in tile kernels yet: cuTile accepts it from sm_107 on, an architecture pykc does not target yet [tile-unsupported]
    # CHECK:STDERR:     tx = ct.full((TILE,), 1.5, ct.float8_e5m3fnu)
    # CHECK:STDERR:                                ^~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    tx = ct.full((TILE,), 1.5, ct.float8_e5m3fnu)
    tx = ct.astype(tx, ct.float32)
    ct.store(x, index=(ct.bid(0),), tile=tx)
