# ARGS: --diag-kinds compile %s --phase=check
# numba.cuda.random: states are a 1-d array of xoroshiro128p_dtype records,
# indices and seeds integers.
import numpy as np
from numba import cuda, float32, from_dtype, void
from numba.cuda.random import (init_xoroshiro128p_state, xoroshiro128p_next,
                               xoroshiro128p_type, xoroshiro128p_uniform_float32)

other = from_dtype(np.dtype([("s0", np.uint32), ("s1", np.uint64)]))


@cuda.jit(void(xoroshiro128p_type[::1], other[::1], float32[::1]))
def k(states, wrong, out):
    # CHECK:STDERR: fail_random.py:[[@LINE+4]]:24: error: `xoroshiro128p_next` takes a 1-d array of `xoroshiro128p_dtype` states, found `array(float32, 1d, C)` [invalid-call]
    # CHECK:STDERR:     xoroshiro128p_next(out, 0)
    # CHECK:STDERR:                        ^~~
    # CHECK:STDERR:
    xoroshiro128p_next(out, 0)
    # CHECK:STDERR: fail_random.py:[[@LINE+4]]:24: error: `xoroshiro128p_next` takes a 1-d array of `xoroshiro128p_dtype` states, found `array(Record(s0[type=uint32;offset=0],s1[type=uint64;offset=4];12;False), 1d, C)` [invalid-call]
    # CHECK:STDERR:     xoroshiro128p_next(wrong, 0)
    # CHECK:STDERR:                        ^~~~~
    # CHECK:STDERR:
    xoroshiro128p_next(wrong, 0)
    # CHECK:STDERR: fail_random.py:[[@LINE+4]]:43: error: `xoroshiro128p_uniform_float32` takes an integer index, found `float64` [invalid-call]
    # CHECK:STDERR:     xoroshiro128p_uniform_float32(states, 1.5)
    # CHECK:STDERR:                                           ^~~
    # CHECK:STDERR:
    xoroshiro128p_uniform_float32(states, 1.5)
    # CHECK:STDERR: fail_random.py:[[@LINE+4]]:5: error: `init_xoroshiro128p_state` takes 3 arguments (states, index, seed), found 2 [wrong-arg-count]
    # CHECK:STDERR:     init_xoroshiro128p_state(states, 0)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    init_xoroshiro128p_state(states, 0)
    out[0] = xoroshiro128p_uniform_float32(states, 0)
