# ARGS: --diag-kinds inspect %s --emit resources
"""`--emit resources`: registers, memory and occupancy per kernel x signature."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: scale void(float32[::1], float32) on sm_90
# CHECK:STDOUT:   symbol              scale__f32a1C_f32
# CHECK:STDOUT:   registers           8 per thread
# CHECK:STDOUT:   spills              0 bytes stored, 0 bytes loaded
# CHECK:STDOUT:   stack frame         0 bytes per thread
# CHECK:STDOUT:   static shared       0 bytes per block
# CHECK:STDOUT:   constant memory     556 bytes (bank 0: launch area and parameters)
# CHECK:STDOUT:   parameters          28 bytes
# CHECK:STDOUT:   max threads/block   1024
# CHECK:STDOUT:   occupancy           block  128: 100% (64 of 64 warps/SM, 16 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  256: 100% (64 of 64 warps/SM, 8 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  512: 100% (64 of 64 warps/SM, 4 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block 1024: 100% (64 of 64 warps/SM, 2 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:
# CHECK:STDOUT: fill void(int32[::1]) on sm_90
# CHECK:STDOUT:   symbol              fill__i32a1C
# CHECK:STDOUT:   registers           10 per thread
# CHECK:STDOUT:   spills              0 bytes stored, 0 bytes loaded
# CHECK:STDOUT:   stack frame         0 bytes per thread
# CHECK:STDOUT:   static shared       0 bytes per block
# CHECK:STDOUT:   constant memory     552 bytes (bank 0: launch area and parameters)
# CHECK:STDOUT:   parameters          24 bytes
# CHECK:STDOUT:   max threads/block   1024
# CHECK:STDOUT:   occupancy           block  128: 100% (64 of 64 warps/SM, 16 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  256: 100% (64 of 64 warps/SM, 8 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  512: 100% (64 of 64 warps/SM, 4 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block 1024: 100% (64 of 64 warps/SM, 2 blocks/SM; limited by warps per SM)
