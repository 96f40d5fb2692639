# ARGS: --diag-kinds inspect %s::scale --emit resources --json --block 96,1024 --maxrregcount 32
"""`--emit resources --json`, chosen block sizes and a register limit."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: {
# CHECK:STDOUT:   "kernels": [
# CHECK:STDOUT:     {
# CHECK:STDOUT:       "name": "scale",
# CHECK:STDOUT:       "signature": "void(float32[::1], float32)",
# CHECK:STDOUT:       "symbol": "scale__f32a1C_f32",
# CHECK:STDOUT:       "arch": "sm_90",
# CHECK:STDOUT:       "registers": 8,
# CHECK:STDOUT:       "spill_stores": 0,
# CHECK:STDOUT:       "spill_loads": 0,
# CHECK:STDOUT:       "stack_bytes": 0,
# CHECK:STDOUT:       "static_shared_bytes": 0,
# CHECK:STDOUT:       "const_bytes": 556,
# CHECK:STDOUT:       "param_bytes": 28,
# CHECK:STDOUT:       "max_threads_per_block": 1024,
# CHECK:STDOUT:       "occupancy": [
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "block_size": 96,
# CHECK:STDOUT:           "active_blocks_per_sm": 21,
# CHECK:STDOUT:           "active_warps_per_sm": 63,
# CHECK:STDOUT:           "max_warps_per_sm": 64,
# CHECK:STDOUT:           "occupancy": 0.9844,
# CHECK:STDOUT:           "limiter": "warps"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "block_size": 1024,
# CHECK:STDOUT:           "active_blocks_per_sm": 2,
# CHECK:STDOUT:           "active_warps_per_sm": 64,
# CHECK:STDOUT:           "max_warps_per_sm": 64,
# CHECK:STDOUT:           "occupancy": 1.0,
# CHECK:STDOUT:           "limiter": "warps"
# CHECK:STDOUT:         }
# CHECK:STDOUT:       ]
# CHECK:STDOUT:     }
# CHECK:STDOUT:   ]
# CHECK:STDOUT: }
