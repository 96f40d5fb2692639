# ARGS: --diag-kinds compile %s --phase=check --const k.d=Spot(ct.bid(0))
# A --const instance's arguments are constants.
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Spot:
    idx: int


@ct.kernel
def k(x: "int32[::1]", d: ct.Constant):
    ct.scatter(x, d.idx, 1)
# CHECK:STDERR: pykc: error: `--const k.d=Spot(ct.bid(0))`: `ct.bid` is no dataclass the file defines (at module level or in the kernel's enclosing function) [invalid-define]
# CHECK:STDERR:
