# ARGS: --diag-kinds compile %s --phase=check
"""A name that the pasted helpers bind and this file binds to something else is an error
at the import; an error inside a pasted helper is reported at the helper's own file and
line."""
import cuda.tile as ct

# CHECK:STDERR: fail_sibling_helpers.py:[[@LINE+4]]:1: error: `OFFSET` means one thing in this file and another in `sibling/tile_helpers.py`, whose helpers pykc pastes into this file for its kernels: rename one [module-conflict]
# CHECK:STDERR: from sibling.tile_helpers import twice_plus
# CHECK:STDERR: ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
from sibling.tile_helpers import twice_plus

OFFSET = 5


@ct.kernel
def k(x: "float32[::1]"):
    ct.store(x, index=(0,), tile=twice_plus(ct.load(x, index=(0,), shape=(16,))))
