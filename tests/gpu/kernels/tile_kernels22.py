"""Tile kernels, twenty-second file: cuTile's frozen dataclasses (issue 22; cuTile's
test_dataclass): instances built in kernels (positional, keyword and default fields, nested
instances, `dataclasses.replace`, loop-carried), fields holding numbers, tuples and tiles, class
constants, methods, properties, `__call__`/`__getitem__`, inheritance, and dataclass kernel
parameters (flattened in field order, arrays among the fields).
Checked on the CPU by tests/tile_sim (dataclass_cases.py) and on the GPU by
tests/gpu/cases/tile_cases22.py, both against NumPy.
"""
import dataclasses
from dataclasses import dataclass
from typing import Any

import cuda.tile as ct


@dataclass(frozen=True)
class FooBar:
    foo: int
    bar: int
    baz: Any = 5


@dataclass(frozen=True)
class Affine:
    scale: Any
    shift: Any

    NUMBER = 123

    def apply(self, t):
        return t * self.scale + self.shift

    def total(self):
        return self.scale * 10 + self.shift

    @property
    def both(self):
        return self.scale + self.shift

    def __call__(self, z):
        return 100 * self.scale + z

    def __getitem__(self, i):
        return self.shift * i


UNIT = Affine(2, 3)


@dataclass(frozen=True)
class Base:
    x: int


@dataclass(frozen=True)
class Derived(Base):
    y: int

    def __call__(self, z):
        return 100 * self.x + 10 * self.y + z


@dataclass(frozen=True)
class TilePair:
    lo: Any
    hi: Any

    def mix(self, w):
        return self.lo * w + self.hi


@dataclass(frozen=True)
class Job:
    src: Any
    dst: Any
    scale: float
    offset: Any


# Module-level instances built from constants: kernels read them as those instances.
ORIGIN = FooBar(40, bar=2)


@ct.kernel
def basics(x: "int32[::1]", n: "int32"):
    fb = FooBar(2, bar=7)
    ct.scatter(x, 0, fb.foo)
    ct.scatter(x, 1, fb.bar)
    ct.scatter(x, 2, fb.baz)
    nested = FooBar(2, bar=7, baz=FooBar(30, 40))
    ct.scatter(x, 3, nested.baz.foo + nested.baz.baz)
    fb2 = dataclasses.replace(fb, baz=123, bar=(30, 40))
    ct.scatter(x, 4, fb2.bar[1] + fb2.baz)
    for i in range(n):
        fb = dataclasses.replace(fb, foo=fb.foo + 1, bar=fb.bar + i)
    ct.scatter(x, 5, fb.foo)
    ct.scatter(x, 6, fb.bar)
    ct.scatter(x, 7, fb.baz)
    d = Derived(3, 5)
    ct.scatter(x, 8, d(7))
    ct.scatter(x, 9, d.x * 1000 + d.y)
    ct.scatter(x, 10, ORIGIN.foo + ORIGIN.bar * 100 + ORIGIN.baz * 10000)
    ct.scatter(x, 11, UNIT.total() + UNIT[2])


@ct.kernel
def methods(x: "float32[::1]", y: "int32[::1]", z: "float32[::1]"):
    a = Affine(ct.bid(0) + 5, 7)
    b = ct.bid(0) * 16
    ct.scatter(y, b + 0, a.total())
    ct.scatter(y, b + 1, a.NUMBER + Affine.NUMBER)
    ct.scatter(y, b + 2, a.both)
    ct.scatter(y, b + 3, a(3))
    ct.scatter(y, b + 4, a[4])
    t = ct.load(x, index=(ct.bid(0),), shape=(8,))
    ct.store(z, index=(ct.bid(0),), tile=a.apply(t))


@ct.kernel
def tile_fields(x: "float32[::1]", y: "float32[::1]", TILE: ct.Constant[int] = 16):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    p = TilePair(t, t * 2.0)
    q = dataclasses.replace(p, hi=p.hi + 1.0)
    if bid == 0:
        q = TilePair(q.hi, q.lo)
    ct.store(y, index=(bid,), tile=q.mix(3.0))


@ct.kernel
def job_param(job: "Job(float32[::1], float32[::1], float32, UniTuple(int32, 2))", TILE: ct.Constant[int] = 16):
    bid = ct.bid(0)
    t = ct.load(job.src, index=(bid,), shape=(TILE,))
    ct.store(job.dst, index=(bid,), tile=t * job.scale + job.offset[0] + job.offset[1])


@dataclass(frozen=True)
class Arg:
    a: int
    b: float


@dataclass(frozen=True)
class At:
    idx: Any
    n: int


@ct.kernel
def unpacked(t: "Tuple((Arg(int32, float32), float32[::1]))", d: "At(UniTuple(int32, 2), int32)",
             z: "int32[:, ::1]"):
    item, out = t
    ct.scatter(out, 0, item.a * 10 + item.b)
    ct.scatter(z, d.idx, d.n)
    c = At((0, 1), 9)
    ct.scatter(z, c.idx, c.n)


@dataclass(frozen=True)
class Shown:
    x: Any
    y: Any = dataclasses.field(repr=False)
    z: Any = "hello"


@dataclass(frozen=True)
class Custom:
    x: Any
    n: Any

    def __str__(self):
        return f"CUSTOM{{{self.x}|{self.n}}}"

    def __repr__(self):
        return f"R({self.n!r})"


@dataclass(frozen=True, repr=False)
class Hidden:
    x: Any


@ct.kernel
def prints(x: "int32[::1]", TILE: ct.Constant[int] = 4):
    """cuTile's test_print of dataclasses: the generated repr (repr=False fields left out, a
    string field), a custom __str__ and __repr__ of self's fields, repr=False, nested in a
    tuple (repr), and a dtype."""
    t = ct.load(x, index=(0,), shape=(TILE,))
    ct.print(Shown(t, t + 1))
    c = Custom(t + 1, ct.bid(0) + 7)
    print(c)
    print((c, Hidden(t)))
    ct.print(f"{Hidden(t)} {x.dtype} {repr('a')}")


@dataclass(frozen=True)
class P:
    a: Any
    b: Any = 1

    def twice(self):
        return self.inc() * 2

    def inc(self):
        return self.a + self.b

    @staticmethod
    def make(v):
        return P(v, v)


def getter(p):
    # A module-level helper taking an instance.
    return p.a * 100 + p.b


def mk(v):
    # A helper returning an instance.
    return P(v + 1)


@ct.kernel
def helpers(x: "int32[::1]", y: "float32[::1]"):
    p = P(ct.bid(0) + 3)
    ct.scatter(x, 0, getter(p))
    q = mk(ct.bid(0))
    ct.scatter(x, 1, q.a)
    ct.scatter(x, 2, p.twice())
    ct.scatter(x, 3, P.inc(p))
    ct.scatter(x, 4, P.make(5).a + p.make(6).b)
    t = ct.load(y, index=(0,), shape=(4,))
    tp = P(t, t * 2.0)
    ct.store(y, index=(1,), tile=getter(tp))
