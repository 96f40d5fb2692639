# ARGS: --diag-kinds compile %s --phase=check --const a.d=Loose(1) --const b.d=Spot(1,2,3) --const c.d=Spot(idx=1,nope=2) --const e.d=Spot() --const f.d=Spot(1,idx=2) --const g.d=Nowhere(1) --const h.d=Own(1) --const i.d=Sets(1) --const j.d=Computed()
# `--const NAME=Cls(...)`: a frozen dataclass of the file, bound as its generated __init__
# binds arguments; anything else is reported, naming the --const.
from dataclasses import dataclass

import cuda.tile as ct

LIMIT = 4


@dataclass
class Loose:
    v: int


@dataclass(frozen=True)
class Spot:
    idx: int
    val: int = 5


@dataclass(frozen=True)
class Own:
    v: int

    def __init__(self, v):
        pass


@dataclass(frozen=True)
class Sets:
    v: int

    def __post_init__(self):
        object.__setattr__(self, "v", self.v * 2)


@dataclass(frozen=True)
class Computed:
    v: int = max(LIMIT, 2)


@ct.kernel
def a(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def b(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def c(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def e(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def f(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def g(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def h(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def i(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)


@ct.kernel
def j(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, 0, 1)
# CHECK:STDERR: pykc: error: `--const a.d=Loose(1)`: Only frozen dataclasses are supported as Constant values: declare `Loose` with `@dataclass(frozen=True)` [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const b.d=Spot(1, 2, 3)`: `Spot` takes 2 field(s) but 3 were given [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const c.d=Spot(idx=1, nope=2)`: `Spot` has no field `nope` [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const e.d=Spot()`: `Spot` needs its `idx` field [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const f.d=Spot(1, idx=2)`: `Spot` got `idx` twice [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const g.d=Nowhere(1)`: `Nowhere` is no dataclass the file defines (at module level or in the kernel's enclosing function) [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const h.d=Own(1)`: `Own` has its own __init__ or __new__: pykc makes constant instances with a dataclass's generated __init__ only [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const i.d=Sets(1)`: `Sets`'s __post_init__ sets fields (object.__setattr__), which pykc does not run for a constant instance [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--const j.d=Computed()`: the default of `Computed.v` is not a constant [invalid-define]
# CHECK:STDERR:
