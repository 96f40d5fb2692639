# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Sibling modules imported as objects (`from .sibling import config, core`, as stumpy's
`from . import config, core`): what kernels and device functions read of them
(`core.searchsorted_right`, `config.THRESHOLD`) is pasted in with what it uses from its own
module; host code's uses of them (`core.array_to_temp_file`) stay the host's."""
from numba import cuda

from .sibling import config, core


@cuda.jit("void(float64[::1], float64[::1], int64[::1])")
def kernel(sorted_values, x, out):
    i = cuda.grid(1)
    if i < x.size:
        d = max(x[i], config.THRESHOLD)
        out[i] = core.searchsorted_right(sorted_values, core.safe_denominator(d))


def host(values):
    name, _ = core.array_to_temp_file(values)
    return name, config.THREADS_PER_BLOCK
# CHECK:STDOUT: kernel kernel kernel__f64a1C_f64a1C_i64a1C void(float64[::1], float64[::1], int64[::1])
# CHECK:STDOUT:   d: float64
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   out: array(int64, 1d, C)
# CHECK:STDOUT:   sorted_values: array(float64, 1d, C)
# CHECK:STDOUT:   x: array(float64, 1d, C)
# CHECK:STDOUT: device safe_denominator pykc_device__safe_denominator__f64 float64(float64)
# CHECK:STDOUT:   d: float64
# CHECK:STDOUT: device searchsorted_right pykc_device__searchsorted_right__f64a1C_f64 int64(float64[::1], float64)
# CHECK:STDOUT:   a: array(float64, 1d, C)
# CHECK:STDOUT:   hi: int64
# CHECK:STDOUT:   lo: int64
# CHECK:STDOUT:   mid: int64
# CHECK:STDOUT:   v: float64
