# ARGS: --diag-kinds compile %s --phase=check --const const_use.d=Spot((1,2))
# A frozen dataclass's fields cannot be assigned, in __post_init__ or elsewhere (Python
# raises dataclasses.FrozenInstanceError); InitVar fields (cuTile has none); a Constant
# instance is read by its fields and class constants only.
from dataclasses import InitVar, dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Sets:
    foo: int

    def __post_init__(self):
        # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:9: error: cannot assign to field `foo` of `Sets`: tile kernels' dataclasses are frozen (Python raises dataclasses.FrozenInstanceError) [tile-type]
        # CHECK:STDERR:         self.foo = 4
        # CHECK:STDERR:         ^~~~~~~~
        # CHECK:STDERR:
        self.foo = 4


@dataclass(frozen=True)
class Bumps:
    foo: int

    def __post_init__(self):
        # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:9: error: cannot assign to field `foo` of `Bumps`: tile kernels' dataclasses are frozen (Python raises dataclasses.FrozenInstanceError) [tile-type]
        # CHECK:STDERR:         self.foo += 1
        # CHECK:STDERR:         ^~~~~~~~
        # CHECK:STDERR:
        self.foo += 1


@dataclass(frozen=True)
class WithInitVar:
    foo: int
    scale: InitVar[int]

    def __post_init__(self, scale):
        pass


@dataclass(frozen=True)
class Spot:
    idx: tuple

    def twice(self):
        return self.idx


@ct.kernel
def sets(x: "int32[::1]"):
    s = Sets(3)
    # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:5: error: cannot assign to field `foo` of `Sets`: tile kernels' dataclasses are frozen (Python raises dataclasses.FrozenInstanceError) [tile-type]
    # CHECK:STDERR:     s.foo = 5
    # CHECK:STDERR:     ^~~~~
    # CHECK:STDERR:
    s.foo = 5
    Bumps(1)


@ct.kernel
def initvar(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:5: error: Dataclasses with InitVar fields are not supported (`WithInitVar.scale`) [tile-type]
    # CHECK:STDERR:     WithInitVar(1, 2)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    WithInitVar(1, 2)


@ct.kernel
def const_use(x: "int32[::1]", d: ct.Constant):
    # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:22: error: 'Spot' object is not subscriptable [tile-type]
    # CHECK:STDERR:     ct.scatter(x, 0, d[0])
    # CHECK:STDERR:                      ^~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, d[0])
    # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:22: error: `Spot.twice` of a Constant instance is not supported in tile kernels yet: read its fields, or pass the instance as a run-time parameter [tile-unsupported]
    # CHECK:STDERR:     ct.scatter(x, 1, d.twice())
    # CHECK:STDERR:                      ^~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 1, d.twice())
    # CHECK:STDERR: fail_tile_dataclass_post_init.py:[[@LINE+4]]:22: error: `Spot` has no attribute `nothing` [unknown-attribute]
    # CHECK:STDERR:     ct.scatter(x, 2, d.nothing)
    # CHECK:STDERR:                      ^~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 2, d.nothing)
