# ARGS: --diag-kinds compile %s --phase=check --const kern.c=Level.MEDIUM
# A Constant's value given as a path (`--const kern.c=Level.LOW`, `ct.float32`) must name an
# enum member or a dtype the file knows.
from enum import IntEnum

import cuda.tile as ct


class Level(IntEnum):
    LOW = 1
    HIGH = 4


@ct.kernel
def kern(out: "int32[::1]", c: ct.Constant):
    ct.scatter(out, 0, c)
# CHECK:STDERR: pykc: error: `--const kern.c=Level.MEDIUM`: `Level.MEDIUM` is not a number, an enum member or a dtype the file names [invalid-define]
# CHECK:STDERR:
