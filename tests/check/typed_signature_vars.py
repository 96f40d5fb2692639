# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Signatures held in module variables, as numba accepts them: a string, a list or a
# tuple of strings; the last assignment before the decorator counts.
from numba import cuda

SIGS = ["void(float32[::1], float32)", "void(float64[::1], float64)"]
ONE = "void(int32[::1])"
PAIR = ("void(int64[::1])", "void(uint8[::1])")
ONE = "void(int16[::1])"


@cuda.jit(SIGS)
def scale(x, a):
    x[cuda.grid(1)] *= a


@cuda.jit(ONE)
def inc(x):
    x[cuda.grid(1)] += 1


@cuda.jit(PAIR)
def dec(x):
    x[cuda.grid(1)] -= 1
# CHECK:STDOUT: kernel scale scale__f32a1C_f32 void(float32[::1], float32)
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel scale scale__f64a1C_f64 void(float64[::1], float64)
# CHECK:STDOUT:   a: float64
# CHECK:STDOUT:   x: array(float64, 1d, C)
# CHECK:STDOUT: kernel inc inc__i16a1C void(int16[::1])
# CHECK:STDOUT:   x: array(int16, 1d, C)
# CHECK:STDOUT: kernel dec dec__i64a1C void(int64[::1])
# CHECK:STDOUT:   x: array(int64, 1d, C)
# CHECK:STDOUT: kernel dec dec__u8a1C void(uint8[::1])
# CHECK:STDOUT:   x: array(uint8, 1d, C)
