# ARGS: --diag-kinds compile %s --phase=check
# Functions defined inside tile kernels (closures, docs/TILE.md "Closures") and
# ct.reduce with a function: what is refused, and why.
import cuda.tile as ct


def deco(f):
    return f


@ct.kernel
def async_and_decorated(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:5: error: `async def` inside a tile kernel or helper is not supported in tile kernels yet [tile-unsupported]
    # CHECK:STDERR:     async def later(t):
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    async def later(t):
        return t

    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:6: error: a decorated function defined inside a tile kernel or helper is not supported in tile kernels yet: define it without decorators (cuTile calls nested functions as written) [tile-unsupported]
    # CHECK:STDERR:     @deco
    # CHECK:STDERR:      ^~~~
    # CHECK:STDERR:
    @deco
    def decorated(t):
        return t
    ct.scatter(x, 0, 1)


@ct.kernel
def runtime_default(x: "int32[::1]"):
    v = ct.gather(x, 0)

    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:16: error: a run-time default value (`int32`) of a function defined inside a tile kernel is not supported in tile kernels yet: pass the value as an argument, or give a compile-time default [tile-unsupported]
    # CHECK:STDERR:     def f(t, d=v):
    # CHECK:STDERR:                ^
    # CHECK:STDERR:
    def f(t, d=v):
        return t + d
    ct.scatter(x, 0, f(1))


@ct.kernel
def unassigned_capture(x: "int32[::1]"):
    def f(t):
        return t + later
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:22: error: `f` uses `later`, which is not assigned a value before this point [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, f(1))
    # CHECK:STDERR:                      ^~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, f(1))
    later = 5


@ct.kernel
def recursive(x: "int32[::1]", n: "int32"):
    def f(t):
        return f(t - 1) if t > 0 else t
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:22: error: a function defined inside a tile kernel that calls itself (`f`) is not supported in tile kernels yet: cuTile inlines every call; write the recursion as a module-level helper [tile-unsupported]
    # CHECK:STDERR:     ct.scatter(x, 0, f(n))
    # CHECK:STDERR:                      ^~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, f(n))


@ct.kernel
def chosen_at_run_time(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:5: error: binding `g` to different functions on the paths of a run-time `if` is not supported in tile kernels yet: they are different functions (the same function with other captured numbers is) [tile-unsupported]
    # CHECK:STDERR:     if ct.bid(0) == 0:
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    if ct.bid(0) == 0:
        g = lambda t: t + 1  # noqa: E731
    else:
        g = lambda t: t + 2  # noqa: E731
    ct.scatter(x, 0, g(1))


@ct.kernel
def mixed_tuple(x: "int32[::1]"):
    v = ct.gather(x, 0)
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:12: error: a tuple holding a function and a run-time value (`int32`) is not supported in tile kernels yet: keep functions and run-time values in tuples of their own [tile-unsupported]
    # CHECK:STDERR:     pair = (lambda t: t, v)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    pair = (lambda t: t, v)
    ct.scatter(x, 0, pair[0](1))


@ct.kernel
def items_index(x: "int32[::1]"):
    fns = (lambda: 1, lambda: 2)
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:26: error: tuple index out of range [index-out-of-range]
    # CHECK:STDERR:     ct.scatter(x, 0, fns[2]())
    # CHECK:STDERR:                          ^
    # CHECK:STDERR:
    ct.scatter(x, 0, fns[2]())


@ct.kernel
def reduce_errors(x: "int32[:, ::1]", y: "int32[::1]"):
    xt = ct.load(x, (0, 0), (16, 16))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:37: error: axis 2 is out of range for a tile of shape (16, 16) [tile-shape]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(xt, 2, lambda a, b: a + b, 0))
    # CHECK:STDERR:                                     ^
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(xt, 2, lambda a, b: a + b, 0))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:60: error: the identity of `ct.reduce` must be a constant number, found `tile(int32, (16, 16))` [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(xt, 0, lambda a, b: a + b, xt))
    # CHECK:STDERR:                                                            ^~
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(xt, 0, lambda a, b: a + b, xt))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:40: error: the function `lambda` given to `ct.reduce` must take 2 positional parameters (1 for the values combined so far, 1 for the next), found 1 [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(xt, 0, lambda a: a, 0))
    # CHECK:STDERR:                                        ^~~~~~~~~~~
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(xt, 0, lambda a: a, 0))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:40: error: `ct.reduce` combines with a function (a `def`, a lambda, operator.add/mul, ct.add, ct.mul, ct.maximum, ct.minimum), found `3` [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(xt, 0, 3, 0))
    # CHECK:STDERR:                                        ^
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(xt, 0, 3, 0))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:46: error: `cuda.tile.add` combines one value with another; a tuple of 2 tiles needs a function of 4 values [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce((xt, xt), 0, ct.add, (0, 0)))
    # CHECK:STDERR:                                              ^~~~~~
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce((xt, xt), 0, ct.add, (0, 0)))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:40: error: the reduction function returned `UniTuple(int32 x 2)` where a 0-d `int32` value was expected [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(xt, 0, lambda a, b: (a, b), 0))
    # CHECK:STDERR:                                        ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(xt, 0, lambda a, b: (a, b), 0))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:40: error: the reduction function returned `tile(int32, (16, 16))` where a 0-d `int32` value was expected [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(xt, 0, lambda a, b: xt, 0))
    # CHECK:STDERR:                                        ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(xt, 0, lambda a, b: xt, 0))
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:33: error: `ct.reduce` reduces a tile or a tuple of tiles, found `3` [tile-type]
    # CHECK:STDERR:     ct.store(y, (0,), ct.reduce(3, 0, lambda a, b: a + b, 0))
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    ct.store(y, (0,), ct.reduce(3, 0, lambda a, b: a + b, 0))


def make_cast(dtype):
    def f(t):
        return t.astype(dtype)
    return f


@ct.kernel
def joined_dtypes(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:5: error: binding `g` to different functions on the paths of a run-time `if` is not supported in tile kernels yet: its captured `dtype` is `cuda.tile.float16` on one path and `cuda.tile.float32` on the other (the same function with other captured numbers is) [tile-unsupported]
    # CHECK:STDERR:     if ct.bid(0) == 0:
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    if ct.bid(0) == 0:
        g = make_cast(ct.float16)
    else:
        g = make_cast(ct.float32)
    ct.scatter(x, 0, g(ct.gather(x, 1)))


@ct.kernel
def mutual(x: "int32[::1]"):
    def f(t):
        return g(t)

    def g(t):
        return f(t)
    # CHECK:STDERR: fail_tile_closures.py:[[@LINE+4]]:22: error: functions defined inside a tile kernel that use each other (`f`) is not supported in tile kernels yet: cuTile inlines every call; define them at module level [tile-unsupported]
    # CHECK:STDERR:     ct.scatter(x, 0, f(1))
    # CHECK:STDERR:                      ^~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, f(1))
