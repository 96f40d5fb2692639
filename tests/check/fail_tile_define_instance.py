# ARGS: --diag-kinds compile %s --phase=check -D spot=Spot(1,2,3)
# `-D NAME=Cls(...)`: the instance of the class the kernel sees, checked as for --const.
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Spot:
    idx: int
    val: int = 5


spot = Spot(0)


@ct.kernel
def k(x: "int32[::1]"):
    ct.scatter(x, spot.idx, spot.val)
# CHECK:STDERR: pykc: error: `-D spot=Spot(1, 2, 3)`: `Spot` takes 2 field(s) but 3 were given [invalid-define]
# CHECK:STDERR:
