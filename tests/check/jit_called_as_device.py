# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig outer(int64[()],int64[()],int64[()]) --sig again(int64[::1])
"""`@cuda.jit` functions that numba-cuda compiles only where device code calls them (issue 21:
numba-cuda's cache_usecases.py and recursion_usecases.py). A kernel may call one: it is
compiled as a device function there, typed by the call (its launch signatures do not
apply). Such a function, one that returns a value (no kernel can) and a definition that a
later one of the same name hides need no types."""
from numba import cuda

Z = 1


@cuda.jit(cache=True)
def inner(x, y):
    return x + y + Z


@cuda.jit("void(int64[::1])")
def fill(r):
    r[0] = 7


@cuda.jit
def type_change_self(x, y):
    if x > 1 and y > 0:
        return x + type_change_self(x - y, y)
    else:
        return y


@cuda.jit(cache=True)
def outer(r, x, y):
    r[()] = inner(-y[()], x[()])


@cuda.jit
def again(r):
    r[0] = 2


@cuda.jit
def again(r):
    fill(r)
    r[1] = 6
# CHECK:STDOUT: kernel fill fill__i64a1C void(int64[::1])
# CHECK:STDOUT:   r: array(int64, 1d, C)
# CHECK:STDOUT: kernel outer outer__i64a0C_i64a0C_i64a0C void(int64[()], int64[()], int64[()])
# CHECK:STDOUT:   r: array(int64, 0d, C)
# CHECK:STDOUT:   x: array(int64, 0d, C)
# CHECK:STDOUT:   y: array(int64, 0d, C)
# CHECK:STDOUT: kernel again again__i64a1C void(int64[::1])
# CHECK:STDOUT:   r: array(int64, 1d, C)
# CHECK:STDOUT: device inner pykc_device__inner__i64_i64 int64(int64, int64)
# CHECK:STDOUT:   x: int64
# CHECK:STDOUT:   y: int64
# CHECK:STDOUT: device fill pykc_device__fill__i64a1C void(int64[::1])
# CHECK:STDOUT:   r: array(int64, 1d, C)
