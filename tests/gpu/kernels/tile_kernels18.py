"""Tile kernels, eighteenth file: helper functions with variadic and keyword parameters as
cuTile binds them (Python's inspect.Signature.bind): `*args` of run-time tiles and numbers,
keyword-only parameters with and without defaults, positional-only ones, `**kwargs` of
run-time values read with `kwargs["k"]` and passed on with `**kwargs`, calls splicing
`*t` (a run-time tuple, a display, a name bound to a display holding an array, into a
`ct.*` call too) and spreading `**{...}`, plain functions passed as values. Checked on the
CPU by tests/tile_sim (helperargs_cases.py) and on the GPU by tests/gpu/cases/tile_cases18.py,
both against NumPy.
"""
import cuda.tile as ct


def total(first, *rest, scale=1.0):
    acc = first
    for t in ct.static_iter(rest):
        acc = acc + t
    return acc * scale


def scaled(t, *, factor, shift=0.0):
    return t * factor + shift


def affine(t, /, a, b=0.0):
    return t * a + b


def pick(**kw):
    return kw["x"] * kw["w"] + kw.get("c", 0.5)


def forward(f, *args, **kwargs):
    return f(*args, **kwargs)


def mix(*vals):
    return vals[0] + vals[1] * vals[2]


def count(*xs):
    return len(xs)


def row(t):
    return ct.reshape(t, (1, 32))


def shaped(t, *dims):
    return ct.reshape(t, (dims[1], dims[2])) * dims[0]


def again(t, *dims):
    return shaped(t, *dims)


def by_name(t, opts):
    return t * opts["a"] + len(opts)


def call_fn(t, **kw):
    return kw["fn"](t)


def dbl(t):
    return t * 2


@ct.kernel
def helper_args(x: "float32[::1]", y: "float32[::1]", out: "float32[:, ::1]", n: "int32"):
    bid = ct.bid(0)
    a = ct.load(x, (bid,), shape=(32,))
    b = ct.load(y, (bid,), shape=(32,))
    pair = (a, b)
    ct.store(out, (0, bid), tile=row(total(a, b, a, scale=0.5)))
    ct.store(out, (1, bid), tile=row(total(*pair)))
    ct.store(out, (2, bid), tile=row(scaled(a, factor=3.0) + scaled(b, **{"factor": 2.0, "shift": 1.0})))
    ct.store(out, (3, bid), tile=row(affine(a, 2.0, b=1.0)))
    ct.store(out, (4, bid), tile=row(pick(x=a, w=b)))
    ct.store(out, (5, bid), tile=row(forward(scaled, b, factor=4.0)))
    ct.store(out, (6, bid), tile=row(forward(pick, x=b, w=a, c=1.0)))
    ct.store(out, (7, bid), tile=row(mix(n, *(a, 2.0)) * count(a, b, 1, 2)))


@ct.kernel
def splice_builtin(x: "float32[::1]", z: "float32[::1]"):
    args = (z, 2)
    ct.scatter(*args, ct.sum(ct.load(x, (0,), shape=(16,))))


@ct.kernel
def known_dims(x: "float32[::1]", z: "float32[:, ::1]", w: "float32[:, ::1]", n: "int32"):
    # `*args` of a run-time number and constants: the constants still size tiles.
    t = ct.load(x, (0,), shape=(16,))
    ct.store(z, (0, 0), tile=shaped(t, n, 4, 4))
    ct.store(w, (0, 0), tile=again(t, n, 2, 8))


@ct.kernel
def dict_params(x: "float32[::1]", out: "float32[:, ::1]"):
    # A dict display given to an ordinary parameter (constant and run-time values), a
    # function out of **kwargs called.
    t = ct.load(x, (0,), shape=(32,))
    ct.store(out, (0, 0), tile=row(by_name(t, {"a": 3.0})))
    ct.store(out, (1, 0), tile=row(by_name(t, {"a": t, "b": 1})))
    ct.store(out, (2, 0), tile=row(call_fn(t, fn=dbl)))
