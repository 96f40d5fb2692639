# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# cuTile's frozen dataclasses (docs/TILE.md, "Dataclasses"): an instance is a tuple of its
# fields typed `Class(field types)`; constants stay known through fields; methods,
# properties and dunders are helper instances with `self` first; a parameter names its
# class in the signature.
import dataclasses
from dataclasses import dataclass
from typing import Any

import cuda.tile as ct


@dataclass(frozen=True)
class Pair:
    a: Any
    b: Any = 2.5

    SCALE = 10

    def total(self):
        return self.a * self.SCALE + self.b

    @property
    def first(self):
        return self.a

    def __getitem__(self, i):
        return self.b * i


@ct.kernel
def local_instances(x: "float32[::1]", n: "int32"):
    p = Pair(ct.bid(0))
    q = dataclasses.replace(p, b=p.b + n)
    ct.scatter(x, 0, q.total())
    ct.scatter(x, 1, q.first + q[3])
    ct.static_assert(p.b == 2.5)


# A module-level instance of constants: known in kernels.
HALF = Pair(1, 0.5)


@ct.kernel
def param(x: "float32[::1]", p: "Pair(int32, float32)"):
    ct.static_assert(HALF.b == 0.5)
    ct.scatter(x, 1, HALF.total())
    ct.scatter(x, 0, p.total() + Pair.SCALE)
# CHECK:STDOUT: kernel local_instances local_instances__f32a1C_i32 void(float32[::1], int32)
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   p: Pair(int32, float32)
# CHECK:STDOUT:   q: Pair(int32, float32)
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: kernel param param__f32a1C_D4Pair2i32f32 void(float32[::1], Pair(int32, float32))
# CHECK:STDOUT:   p: Pair(int32, float32)
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device Pair.total Pair_total__D4Pair2i32f32 float32(Pair(int32, float32))
# CHECK:STDOUT:   self: Pair(int32, float32)
# CHECK:STDOUT: device Pair.first Pair_first__D4Pair2i32f32 int32(Pair(int32, float32))
# CHECK:STDOUT:   self: Pair(int32, float32)
# CHECK:STDOUT: device Pair.__getitem__ Pair___getitem____D4Pair2i32f32__K3 float32(Pair(int32, float32), i=3)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   self: Pair(int32, float32)
# CHECK:STDOUT: device Pair.total Pair_total__D4Pair2i32f32 float32(Pair(int32, float32))
# CHECK:STDOUT:   self: Pair(int32, float32)
