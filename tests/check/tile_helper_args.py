# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Helper functions with `*args`, keyword-only, positional-only and `**kwargs` parameters,
# bound as cuTile binds them (Python's inspect.Signature.bind): compile-time values stay
# constants (`*args` a constant tuple, `**kwargs` a dict of constants that ct.static_assert
# compares), run-time ones a tuple the instance takes (its signature shows them); calls
# splice `*t` and spread `**d`; a plain function passes as a value.
import cuda.tile as ct


def options(**kwargs):
    ct.static_assert(kwargs == {"bar": 456, "foo": 123})
    ct.static_assert("foo" in kwargs and "qux" not in kwargs)
    ct.static_assert(kwargs.get("qux") is None and kwargs.get("qux", 7) == 7)
    return kwargs["foo"] + kwargs.get("bar")


def leaf(x, foo, bar):
    return x * 100 + foo * 10 + bar


def forward(f, *args, **kwargs):
    return f(*args, **kwargs)


def gather(arr, *items, first=0):
    for i, v in ct.static_iter(enumerate(items)):
        ct.scatter(arr, i + first, v)


def weighted(t, /, *, w, bias=0.0, **extra):
    return t * w + bias + extra["more"]


def shaped(t, *dims):
    return ct.reshape(t, (dims[1], dims[2])) * dims[0]


@ct.kernel
def kernel(x: "int32[::1]", y: "float32[::1]", n: "int32"):
    ct.static_assert(options(foo=123, bar=456) == 579)
    ct.static_assert(forward(leaf, 3, foo=4, bar=5) == 345)
    ct.static_assert(forward(leaf, *(3, 4), **{"bar": 5}) == 345)
    gather(x, 123, *(10, 20), n, first=1)
    t = ct.load(y, (0,), shape=(16,))
    ct.store(y, (0,), tile=weighted(t, w=2.0, more=t))
    ct.store(y, (0,), tile=ct.reshape(shaped(t, n, 4, 4), (16,)))
# CHECK:STDOUT: kernel kernel kernel__i32a1C_f32a1C_i32 void(int32[::1], float32[::1], int32)
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   t: tile(float32, (16,))
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT: device options options__Dfoo_K123_123bar_K456_456 579(kwargs={'foo': 123, 'bar': 456})
# CHECK:STDOUT: device forward forward__Eleaf7__K_3____Dfoo_K4_4bar_K5_5 345(f=leaf, args=(3,), kwargs={'foo': 4, 'bar': 5})
# CHECK:STDOUT:   args: UniTuple(int64 x 1)
# CHECK:STDOUT: device forward forward__Eleaf7__K_3__4___Dbar_K5_5 345(f=leaf, args=(3, 4), kwargs={'bar': 5})
# CHECK:STDOUT:   args: UniTuple(int64 x 2)
# CHECK:STDOUT: device gather gather__i32a1C__t4i32i32i32i32_K123_K10_K20___K1 void(int32[::1], UniTuple(int32 x 4)=(123, 10, 20, ?), first=1)
# CHECK:STDOUT:   arr: array(int32, 1d, C)
# CHECK:STDOUT:   first: int64
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   items: UniTuple(int32 x 4)
# CHECK:STDOUT:   v: int32
# CHECK:STDOUT: device weighted weighted__Tf32x16__K2_0__K0_0__Dmore_Tf32x16 tile(float32, (16,))(tile(float32, (16,)), w=2.0, bias=0.0, extra={'more': tile(float32, (16,))})
# CHECK:STDOUT:   bias: float64
# CHECK:STDOUT:   extra: UniTuple(tile(float32, (16,)) x 1)
# CHECK:STDOUT:   t: tile(float32, (16,))
# CHECK:STDOUT:   w: float64
# CHECK:STDOUT: device shaped shaped__Tf32x16__t3i32i32i32__K4_K4 tile(float32, (4, 4))(tile(float32, (16,)), UniTuple(int32 x 3)=(?, 4, 4))
# CHECK:STDOUT:   dims: UniTuple(int32 x 3)
# CHECK:STDOUT:   t: tile(float32, (16,))
# CHECK:STDOUT: device leaf leaf__K3__K4__K5 345(x=3, foo=4, bar=5)
# CHECK:STDOUT:   bar: int64
# CHECK:STDOUT:   foo: int64
# CHECK:STDOUT:   x: int64
