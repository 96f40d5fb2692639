# ARGS: --diag-kinds compile %s --phase=check
# cuTile's frozen dataclasses in tile kernels (docs/TILE.md, "Dataclasses"): what is
# refused, with cuTile's words where it has them.
import dataclasses
from dataclasses import dataclass
from typing import Any

import cuda.tile as ct


@dataclass(frozen=True)
class FooBar:
    foo: int
    bar: int
    baz: Any = 5


@dataclass
class Thawed:
    foo: int


@dataclass(frozen=True, init=False)
class Initless:
    foo: int


@dataclass(frozen=True)
class CustomInit:
    foo: int

    def __init__(self):
        pass


@dataclass(frozen=True)
class CustomNew:
    foo: int

    def __new__(cls):
        pass


class NotDataclass(FooBar):
    pass


@dataclass(frozen=True)
class NoInitField:
    foo: int
    bar: int = dataclasses.field(init=False)


@dataclass(frozen=True)
class Factory:
    foo: int
    bar: int = dataclasses.field(default_factory=lambda: 5)


@dataclass(frozen=True)
class NoCall:
    x: int


@dataclass(frozen=True)
class Holder:
    a: Any


@ct.kernel
def refused(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Only frozen dataclasses are supported: declare `Thawed` with `@dataclass(frozen=True)` [tile-type]
    # CHECK:STDERR:     Thawed(2)
    # CHECK:STDERR:     ^~~~~~~~~
    # CHECK:STDERR:
    Thawed(2)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Dataclass instance creation is only supported for dataclasses with a default generated __init__() method (`Initless`) [tile-type]
    # CHECK:STDERR:     Initless(2)
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    Initless(2)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Dataclass instance creation is only supported for dataclasses with a default generated __init__() method (`CustomInit`) [tile-type]
    # CHECK:STDERR:     CustomInit()
    # CHECK:STDERR:     ^~~~~~~~~~~~
    # CHECK:STDERR:
    CustomInit()
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Dataclasses with custom __new__ are not supported (`CustomNew`) [tile-type]
    # CHECK:STDERR:     CustomNew()
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    CustomNew()
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Non-dataclass subclasses of a dataclass are not supported (`NotDataclass`) [tile-type]
    # CHECK:STDERR:     NotDataclass(3, 4)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    NotDataclass(3, 4)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Dataclasses with init=False fields are not supported (`NoInitField.bar`) [tile-type]
    # CHECK:STDERR:     NoInitField(2)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    NoInitField(2)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Dataclasses with default_factory fields are not supported (`Factory.bar`) [tile-type]
    # CHECK:STDERR:     Factory(2)
    # CHECK:STDERR:     ^~~~~~~~~~
    # CHECK:STDERR:
    Factory(2)


@ct.kernel
def misuse(x: "int32[::1]"):
    fb = FooBar(2, 7)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:29: error: Dataclass 'FooBar' has no such field 'abracadabra' [tile-type]
    # CHECK:STDERR:     dataclasses.replace(fb, abracadabra=8)
    # CHECK:STDERR:                             ^~~~~~~~~~~~~
    # CHECK:STDERR:
    dataclasses.replace(fb, abracadabra=8)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:18: error: `FooBar` has no field `qux` [invalid-call]
    # CHECK:STDERR:     FooBar(1, 2, qux=3)
    # CHECK:STDERR:                  ^~~~~
    # CHECK:STDERR:
    FooBar(1, 2, qux=3)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: `FooBar` needs its `bar` field [invalid-call]
    # CHECK:STDERR:     FooBar(1)
    # CHECK:STDERR:     ^~~~~~~~~
    # CHECK:STDERR:
    FooBar(1)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:22: error: `FooBar` has no attribute `nope` [unknown-attribute]
    # CHECK:STDERR:     ct.scatter(x, 0, fb.nope)
    # CHECK:STDERR:                      ^~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, fb.nope)
    d = NoCall(3)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Cannot call an object of type NoCall [tile-type]
    # CHECK:STDERR:     d(7)
    # CHECK:STDERR:     ^~~~
    # CHECK:STDERR:
    d(7)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:22: error: Cannot index an object of type NoCall [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, d[1])
    # CHECK:STDERR:                      ^~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, d[1])
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:16: error: a dataclass field holding `cuda.tile.float16` is not supported in tile kernels yet: fields hold numbers, strings, tuples of numbers, tiles and dataclass instances [tile-unsupported]
    # CHECK:STDERR:     h = Holder(ct.float16)
    # CHECK:STDERR:                ^~~~~~~~~~
    # CHECK:STDERR:
    h = Holder(ct.float16)


@ct.kernel
def array_field(x: "int32[::1]"):
    # An instance holding an array is bound once, in straight-line code (it stands for its
    # arrays); not beside tiles.
    h = Holder(x)
    for i in range(2):
        # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:9: error: an instance holding arrays (`Holder`) bound in a run-time loop or branch, or to a name bound more than once is not supported in tile kernels yet: bind it once, in straight-line code [tile-unsupported]
        # CHECK:STDERR:         g = Holder(x)
        # CHECK:STDERR:         ^
        # CHECK:STDERR:
        g = Holder(x)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:9: error: an instance of `FooBar` holding arrays beside tiles is not supported in tile kernels yet: its other fields hold numbers, tuples of them or strings [tile-unsupported]
    # CHECK:STDERR:     t = FooBar(x, ct.zeros((4,), ct.int32), 1)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    t = FooBar(x, ct.zeros((4,), ct.int32), 1)


@ct.kernel
# CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: `FooBar` has 3 field(s), the signature of `bad_field_count` gives 1 [tile-type]
# CHECK:STDERR: def bad_field_count(d: "FooBar(int32)"):
# CHECK:STDERR:     ^~~~~~~~~~~~~~~
# CHECK:STDERR:
def bad_field_count(d: "FooBar(int32)"):
    pass


@ct.kernel
# CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: Only frozen dataclasses are supported as kernel parameters (`Thawed` in the signature of `thawed_param`) [tile-type]
# CHECK:STDERR: def thawed_param(d: "Thawed(int32)"):
# CHECK:STDERR:     ^~~~~~~~~~~~
# CHECK:STDERR:
def thawed_param(d: "Thawed(int32)"):
    pass


@ct.kernel
# CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:5: error: `Nowhere` in the signature of `unknown_class` names no dataclass of this module [tile-type]
# CHECK:STDERR: def unknown_class(d: "Nowhere(int32)"):
# CHECK:STDERR:     ^~~~~~~~~~~~~
# CHECK:STDERR:
def unknown_class(d: "Nowhere(int32)"):
    pass


def helper(a, b):
    return a + b


@ct.kernel
def not_a_tuple(x: "int32[::1]"):
    # Instances are no tuples: Python's TypeErrors.
    d = FooBar(ct.bid(0), 2)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:26: error: object of type 'FooBar' has no len() [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, len(d))
    # CHECK:STDERR:                          ^
    # CHECK:STDERR:
    ct.scatter(x, 0, len(d))
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:15: error: cannot unpack non-iterable FooBar object [tile-type]
    # CHECK:STDERR:     a, b, c = d
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    a, b, c = d
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:9: error: unsupported operand types for `+`: `FooBar(int32, int32, int32)` and `FooBar(int32, int32, int32)` [mismatched-operand-types]
    # CHECK:STDERR:     e = d + d
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR:
    e = d + d
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:30: error: argument after * must be an iterable, not FooBar [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, helper(*d))
    # CHECK:STDERR:                              ^
    # CHECK:STDERR:
    ct.scatter(x, 0, helper(*d))
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:29: error: 'FooBar' object is not iterable [tile-type]
    # CHECK:STDERR:     for v in ct.static_iter(d):
    # CHECK:STDERR:                             ^
    # CHECK:STDERR:
    for v in ct.static_iter(d):
        ct.scatter(x, 0, v)
    ct.print(d)
    pair = (d, 1)
    # CHECK:STDERR: fail_tile_dataclass.py:[[@LINE+4]]:14: error: printing a dataclass instance (`FooBar(int32, int32, int32)`) is not supported in tile kernels yet: print its fields [tile-unsupported]
    # CHECK:STDERR:     ct.print(pair)
    # CHECK:STDERR:              ^~~~
    # CHECK:STDERR:
    ct.print(pair)
