# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Functions defined inside tile kernels (docs/TILE.md "Closures"): each call types the body
# as a helper instance whose parameters are its own and then its captures (constants fold
# into the instance, run-time captures are the caller's variables); a closure a helper
# returns keeps the helper's values; ct.reduce types its function on 0-d values.
import cuda.tile as ct


def make_counter(t):
    u = t * 2

    def f(v):
        return v + u
    return f


def apply(f, t):
    return f(t)


@ct.kernel
def closures(x: "int32[::1]", y: "int32[::1]", n: "int32"):
    def foo(t, a=3):
        return t * a + n
    v = ct.gather(x, 0)
    ct.scatter(y, 0, foo(v))
    n = 100
    ct.scatter(y, 1, foo(v, a=4))
    c = make_counter(v + 1)
    ct.scatter(y, 2, c(1))
    ct.scatter(y, 3, apply(lambda t: t - v, 7))
    fns = tuple(lambda: k for k in ct.static_iter(range(3)))
    ct.scatter(y, 4, fns[0]())
    xt = ct.load(x, (0,), (16,))
    ct.store(y, (1,), ct.reduce(xt.reshape((4, 4)), 0, lambda a, b: a * b + v, 1))
    ct.scatter(y, 5, ct.reduce(xt, 0, lambda a, b: ct.maximum(a, b), 0))
# CHECK:STDOUT: kernel closures closures__i32a1C_i32a1C_i32 void(int32[::1], int32[::1], int32)
# CHECK:STDOUT:   $52.u: int32
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   v: int32
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   xt: tile(int32, (16,))
# CHECK:STDOUT:   y: array(int32, 1d, C)
# CHECK:STDOUT: device foo foo__i32__K3__i32 int32(int32, a=3, int32)
# CHECK:STDOUT:   a: int64
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   t: int32
# CHECK:STDOUT: device foo foo__i32__K4__K100 int32(int32, a=4, n=100)
# CHECK:STDOUT:   a: int64
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   t: int32
# CHECK:STDOUT: device make_counter make_counter__i32 <function f>(int32)
# CHECK:STDOUT:   t: int32
# CHECK:STDOUT:   u: int32
# CHECK:STDOUT: device f f__K1__i32 int32(v=1, int32)
# CHECK:STDOUT:   u: int32
# CHECK:STDOUT:   v: int64
# CHECK:STDOUT: device apply apply__C69l_v_i32__K7 int32(f=<lambda>, t=7)
# CHECK:STDOUT:   f.v: int32
# CHECK:STDOUT:   t: int64
# CHECK:STDOUT: device lambda lambda__K2 2(k=2)
# CHECK:STDOUT:   k: int64
# CHECK:STDOUT: device lambda lambda__i32__i32__i32 int32(int32, int32, int32)
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   b: int32
# CHECK:STDOUT:   v: int32
# CHECK:STDOUT: device lambda lambda__i32__i32 int32(int32, int32)
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   b: int32
# CHECK:STDOUT: device lambda lambda__K7__i32 int32(t=7, int32)
# CHECK:STDOUT:   t: int64
# CHECK:STDOUT:   v: int32
