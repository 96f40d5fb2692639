# ARGS: --diag-kinds compile %s --phase=check
# 8-bit float tiles have no arithmetic (convert with astype first); E8M0 holds scales,
# not ct.mma operands; numba.cuda kernels take no 8-bit floats.
import cuda.tile as ct
from numba import cuda


# CHECK:STDERR: fail_tile_float8.py:[[@LINE+4]]:11: error: bfloat16 and the float8 types are supported in tile kernels (`@ct.kernel`) only [unsupported-construct]
# CHECK:STDERR: @cuda.jit("void(float8_e4m3fn[::1])")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(float8_e4m3fn[::1])")
def simt_float8(a):
    pass


@ct.kernel
def bad_float8(a: "float8_e4m3fn[::1]", s: "float8_e8m0fnu[:, ::1]", TILE: ct.Constant[int] = 32):
    x = ct.load(a, index=(0,), shape=(TILE,))
    # CHECK:STDERR: fail_tile_float8.py:[[@LINE+4]]:13: error: `float8_e4m3fn` tiles are loaded, stored, converted and `ct.mma` operands, without arithmetic: convert with `.astype(ct.float32)` first [tile-type]
    # CHECK:STDERR:     y = x * 2
    # CHECK:STDERR:             ^
    # CHECK:STDERR:
    y = x * 2
    # CHECK:STDERR: fail_tile_float8.py:[[@LINE+4]]:9: error: `float8_e4m3fn` tiles are loaded, stored, converted and `ct.mma` operands, without arithmetic: convert with `.astype(ct.float32)` first [tile-type]
    # CHECK:STDERR:     z = ct.exp(x)
    # CHECK:STDERR:         ^~~~~~~~~
    # CHECK:STDERR:
    z = ct.exp(x)
    # CHECK:STDERR: fail_tile_float8.py:[[@LINE+4]]:9: error: `float8_e4m3fn` tiles are loaded, stored, converted and `ct.mma` operands, without arithmetic: convert with `.astype(ct.float32)` first [tile-type]
    # CHECK:STDERR:     m = ct.maximum(x, x)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    m = ct.maximum(x, x)
    t = ct.load(s, index=(0, 0), shape=(TILE, TILE))
    # CHECK:STDERR: fail_tile_float8.py:[[@LINE+4]]:9: error: `ct.mma` of `float8_e8m0fnu` tiles: E8M0 holds block scales (ct.mma_scaled's), not matrix values; products take float8_e4m3fn or float8_e5m2 [tile-type]
    # CHECK:STDERR:     p = ct.mma(t, t, ct.zeros((TILE, TILE), dtype=ct.float32))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    p = ct.mma(t, t, ct.zeros((TILE, TILE), dtype=ct.float32))
