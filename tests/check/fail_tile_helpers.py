# ARGS: --diag-kinds compile %s --phase=check
# Diagnostics of helper functions, tuples, dtypes as values, `x if c else y`, the
# builtins, tfloat32, argmax/argmin and the shape operations in tile kernels.
import cuda.tile as ct


def forever(n):
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:12: error: `forever` calls itself with the same argument types and constants (directly or through other helpers): tile helper functions are inlined where they are called, so a recursion must end at compile time, on a Constant argument [tile-recursion]
    # CHECK:STDERR:     return forever(n - 1)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    return forever(n - 1)


def countdown(t, n):
    # Constant `n` decides the depth: ends at compile time, but 500 levels is too deep.
    if n > 0:
        # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:16: error: `countdown` recurses more than 200 calls deep at compile time: tile helper functions are inlined where they are called, so each level of the recursion is a copy of the helper [tile-recursion]
        # CHECK:STDERR:         return countdown(t, n - 1) + 1
        # CHECK:STDERR:                ^~~~~~~~~~~~~~~~~~~
        # CHECK:STDERR:
        return countdown(t, n - 1) + 1
    return t


def ping(n):
    return pong(n)


def pong(n):
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:12: error: `ping` calls itself with the same argument types and constants (directly or through other helpers): tile helper functions are inlined where they are called, so a recursion must end at compile time, on a Constant argument [tile-recursion]
    # CHECK:STDERR:     return ping(n)
    # CHECK:STDERR:            ^~~~~~~
    # CHECK:STDERR:
    return ping(n)


def varargs(*xs):
    return 0


def two(a, b=2):
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:16: error: arrays cannot take part in tile arithmetic: `ct.load` a tile first [tile-type]
    # CHECK:STDERR:     return a + b
    # CHECK:STDERR:                ^
    # CHECK:STDERR:
    return a + b


def mixed(t, flag):
    if flag > 0:
        return t
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:5: error: `mixed` returns `tile(float16, (16,))` here but `tile(float32, (16,))` before: a helper function returns one type [tile-type]
    # CHECK:STDERR:     return t.astype(ct.float16)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    return t.astype(ct.float16)


def pair(t):
    return t, t


def nothing(t):
    pass


async def later(t):
    return t


@ct.kernel
def helpers(x: "float32[::1]", n: "int32"):
    t = ct.load(x, index=(0,), shape=(16,))
    a = forever(n)
    b = ping(n)
    deep = countdown(t, 500)
    # Helpers take `*args` (tests/check/fail_tile_helper_args.py has their errors).
    c = varargs(1, 2)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: `two` needs its `a` argument [invalid-call]
    # CHECK:STDERR:     d = two()
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR:
    d = two()
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:19: error: `two` takes 2 positional arguments but 3 were given [invalid-call]
    # CHECK:STDERR:     e = two(1, 2, 3)
    # CHECK:STDERR:                   ^
    # CHECK:STDERR:
    e = two(1, 2, 3)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:16: error: `two` has no parameter `c` [invalid-call]
    # CHECK:STDERR:     f = two(1, c=3)
    # CHECK:STDERR:                ^~~
    # CHECK:STDERR:
    f = two(1, c=3)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:16: error: `two` got `a` twice [invalid-call]
    # CHECK:STDERR:     g = two(1, a=3)
    # CHECK:STDERR:                ^~~
    # CHECK:STDERR:
    g = two(1, a=3)
    h = mixed(t, n)
    p = pair(t)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:15: error: cannot unpack `UniTuple(tile(float32, (16,)) x 2)` into 3 names [tile-type]
    # CHECK:STDERR:     q, r, s = pair(t)
    # CHECK:STDERR:               ^~~~~~~
    # CHECK:STDERR:
    q, r, s = pair(t)
    u = two(x)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: this gives no value (`None`) to assign [tile-type]
    # CHECK:STDERR:     z = nothing(t)
    # CHECK:STDERR:         ^~~~~~~~~~
    # CHECK:STDERR:
    z = nothing(t)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: calling `async def later` is not supported in tile kernels yet [tile-unsupported]
    # CHECK:STDERR:     w = later(t)
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR:
    w = later(t)


@ct.kernel
def values(x: "float32[::1]", n: "int32"):
    t = ct.load(x, index=(0,), shape=(16,))
    if n > 0:
        # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: `dtype` holds `cuda.tile.float16`, a compile-time value: assign it outside runtime loops and branches, and not to a name that holds a runtime value [tile-type]
        # CHECK:STDERR:         dtype = ct.float16
        # CHECK:STDERR:         ^~~~~
        # CHECK:STDERR:
        dtype = ct.float16
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:33: error: tfloat32 tiles are `ct.mma` operands only: convert with `.astype(ct.float32)` first [tile-type]
    # CHECK:STDERR:     v = t.astype(ct.tfloat32) * 2
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    v = t.astype(ct.tfloat32) * 2
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: tfloat32 tiles are `ct.mma` operands only: convert with `.astype(ct.float32)` first [tile-type]
    # CHECK:STDERR:     w = ct.sum(t.astype(ct.tfloat32))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    w = ct.sum(t.astype(ct.tfloat32))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:14: error: the condition of `x if c else y` must be a scalar, found `tile(bool, (16,))` (use `ct.where` for tiles) [tile-type]
    # CHECK:STDERR:     y = t if t > 0 else t
    # CHECK:STDERR:              ^~~~~
    # CHECK:STDERR:
    y = t if t > 0 else t
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:13: error: `int` takes scalars in tile kernels, found `tile(float32, (16,))` (use `ct.astype`) [tile-type]
    # CHECK:STDERR:     z = int(t)
    # CHECK:STDERR:             ^
    # CHECK:STDERR:
    z = int(t)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: `max` takes two or more scalars or tiles in tile kernels [invalid-call]
    # CHECK:STDERR:     m = max(1)
    # CHECK:STDERR:         ^~~~~~
    # CHECK:STDERR:
    m = max(1)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: unsupported operand types for `<`: `float32` and `cuda.tile.float32` [mismatched-operand-types]
    # CHECK:STDERR:     k = x.dtype < ct.float32
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    k = x.dtype < ct.float32
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:24: error: the condition choosing between `cuda.tile.float32` and `cuda.tile.float16` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ok = ct.float32 if n else ct.float16
    # CHECK:STDERR:                        ^
    # CHECK:STDERR:
    ok = ct.float32 if n else ct.float16


@ct.kernel
def shapes(x: "float32[:, ::1]"):
    t = ct.load(x, index=(0, 0), shape=(16, 8))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:23: error: cannot reshape `tile(float32, (16, 8))` (128 elements) to (4, 4) [tile-shape]
    # CHECK:STDERR:     a = ct.reshape(t, (4, 4))
    # CHECK:STDERR:                       ^~~~~~
    # CHECK:STDERR:
    a = ct.reshape(t, (4, 4))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:23: error: tile dimensions must be powers of two (one may be -1), found 3 [tile-shape]
    # CHECK:STDERR:     b = ct.reshape(t, (3, -1))
    # CHECK:STDERR:                       ^~~~~~~
    # CHECK:STDERR:
    b = ct.reshape(t, (3, -1))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:23: error: the axes must be a permutation of the 2 axes of `tile(float32, (16, 8))` [tile-shape]
    # CHECK:STDERR:     c = ct.permute(t, (0, 0))
    # CHECK:STDERR:                       ^~~~~~
    # CHECK:STDERR:
    c = ct.permute(t, (0, 0))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: `ct.transpose` of a 3-d tile needs both `axis0` and `axis1` (only 2-d tiles default to swapping their axes) [tile-shape]
    # CHECK:STDERR:     d = ct.transpose(t.reshape((2, 8, 8)))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    d = ct.transpose(t.reshape((2, 8, 8)))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:28: error: cannot broadcast `tile(float32, (16, 8))` to (16, 4) [tile-shape]
    # CHECK:STDERR:     e = ct.broadcast_to(t, (16, 4))
    # CHECK:STDERR:                            ^~~~~~~
    # CHECK:STDERR:
    e = ct.broadcast_to(t, (16, 4))
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:27: error: axis 3 is out of range for `tile(float32, (16, 8))` [tile-shape]
    # CHECK:STDERR:     f = ct.expand_dims(t, 3)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    f = ct.expand_dims(t, 3)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: this indexing of `tile(float32, (16, 8))` is not supported in tile kernels yet: tiles take `None`, `:` and `...` only (`t[:, None]` adds an axis) [tile-unsupported]
    # CHECK:STDERR:     g = t[0]
    # CHECK:STDERR:         ^~~~
    # CHECK:STDERR:
    g = t[0]
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:9: error: this indexing of `tile(float32, (16, 8))` is not supported in tile kernels yet: tiles take `None`, `:` and `...` only (`t[:, None]` adds an axis) [tile-unsupported]
    # CHECK:STDERR:     h = t[1:, None]
    # CHECK:STDERR:         ^~~~~~~~~~~
    # CHECK:STDERR:
    h = t[1:, None]
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:27: error: axis 2 is out of range for `tile(float32, (16, 8))` [tile-shape]
    # CHECK:STDERR:     i = ct.argmax(t, axis=2)
    # CHECK:STDERR:                           ^
    # CHECK:STDERR:
    i = ct.argmax(t, axis=2)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:19: error: `ct.argmin` reduces a tile, found `array(float32, 2d, C)` [tile-type]
    # CHECK:STDERR:     j = ct.argmin(x)
    # CHECK:STDERR:                   ^
    # CHECK:STDERR:
    j = ct.argmin(x)
    # CHECK:STDERR: fail_tile_helpers.py:[[@LINE+4]]:28: error: `reshape` takes at most 2 arguments [invalid-call]
    # CHECK:STDERR:     k = t.reshape((4, 32), 1)
    # CHECK:STDERR:                            ^
    # CHECK:STDERR:
    k = t.reshape((4, 32), 1)
