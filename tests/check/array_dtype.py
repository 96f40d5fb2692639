# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""An array's `dtype` is its element type as a dtype value (issue 21 item 2: NeMo's
`cuda.shared.array(shape=(N,), dtype=acts.dtype)`), for shared and local arrays; numba
cannot call it (tests/check/fail_array_dtype.py)."""
from numba import cuda

N = 128


@cuda.jit("void(float32[::1], int16[::1])")
def reduce_rows(acts, small):
    storage = cuda.shared.array(shape=(N,), dtype=acts.dtype)
    scratch = cuda.local.array(4, small.dtype)
    i = cuda.threadIdx.x
    storage[i] = acts[i]
    scratch[0] = i
    cuda.syncthreads()
    acts[i] = storage[N - 1 - i] + scratch[0]
# CHECK:STDOUT: kernel reduce_rows reduce_rows__f32a1C_i16a1C void(float32[::1], int16[::1])
# CHECK:STDOUT:   acts: array(float32, 1d, C)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   scratch: array(int16, 1d, C)
# CHECK:STDOUT:   small: array(int16, 1d, C)
# CHECK:STDOUT:   storage: array(float32, 1d, C)
