# ARGS: --diag-kinds inspect %s::k --emit resources --link %d/inputs/helpers.ptx
# pykc inspect links like pykc compile: the resources of a kernel calling PTX.
from numba import cuda

plus_one = cuda.declare_device("plus_one", "int32(int32)")


@cuda.jit("void(int32[::1])")
def k(x):
    x[0] = plus_one(x[0])
# CHECK:STDOUT: k void(int32[::1]) on sm_90
# CHECK:STDOUT:   symbol              k__i32a1C
# CHECK:STDOUT:   registers           24 per thread
# CHECK:STDOUT:   spills              0 bytes stored, 0 bytes loaded
# CHECK:STDOUT:   stack frame         8 bytes per thread
# CHECK:STDOUT:   static shared       0 bytes per block
# CHECK:STDOUT:   constant memory     552 bytes (bank 0: launch area and parameters)
# CHECK:STDOUT:   parameters          24 bytes
# CHECK:STDOUT:   max threads/block   1024
# CHECK:STDOUT:   occupancy           block  128: 100% (64 of 64 warps/SM, 16 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  256: 100% (64 of 64 warps/SM, 8 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  512: 100% (64 of 64 warps/SM, 4 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block 1024: 100% (64 of 64 warps/SM, 2 blocks/SM; limited by warps per SM)
