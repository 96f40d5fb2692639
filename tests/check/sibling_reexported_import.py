# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""A sibling module that imports a name from a package's submodule (`from
cuda.tile._bytecode.version import BytecodeVersion`) while this file imports it from the
package, which re-exports it (`from cuda.tile._bytecode import BytecodeVersion`, as
cuTile's tests and their conftest.py do): one meaning, not a conflict."""
import cuda.tile as ct
from cuda.tile._bytecode import BytecodeVersion

from sibling.reexport_helpers import requires_version, triple


@ct.kernel
def kernel(x: "float32[::1]", TILE: ct.Constant[int] = 16):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=triple(t))


@requires_version(BytecodeVersion.V_13_3)
def host_test():
    pass
# CHECK:STDOUT: kernel kernel kernel__f32a1C__KTILE_16 void(float32[::1], TILE=16)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   t: tile(float32, (16,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT: device triple triple__Tf32x16 tile(float32, (16,))(tile(float32, (16,)))
# CHECK:STDOUT:   v: tile(float32, (16,))
