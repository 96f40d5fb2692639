# ARGS: --diag-kinds compile %s --phase=check
"""An error inside a helper pasted from a sibling module is reported at the helper's
own file and line."""
import cuda.tile as ct

from sibling.tile_helpers import broken


@ct.kernel
def k(x: "float32[::1]"):
    ct.store(x, index=(0,), tile=broken(ct.load(x, index=(0,), shape=(16,))))
# CHECK:STDERR: sibling/tile_helpers.py:27:16: error: name `not_defined_here` is not defined [undefined-name]
# CHECK:STDERR:     return t + not_defined_here
# CHECK:STDERR:                ^~~~~~~~~~~~~~~~
# CHECK:STDERR:
