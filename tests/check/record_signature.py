# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig=draw(Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)[::1],float32[::1])
"""numba's name of a record type in a signature (what pykc's JIT writes for a structured
array argument, issue 19): the xoroshiro128+ state array of numba.cuda.random typed from
its NumPy dtype is the same type as `xoroshiro128p_type[::1]`."""
from numba import cuda
from numba.cuda.random import xoroshiro128p_uniform_float32


@cuda.jit
def draw(states, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = xoroshiro128p_uniform_float32(states, i)
# CHECK:STDOUT: kernel draw draw__r2_2s0u64o0_2s1u64o8_16aa1C_f32a1C void(Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)[::1], float32[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   states: array(Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True), 1d, C)
