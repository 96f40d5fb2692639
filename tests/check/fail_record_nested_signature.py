# ARGS: --diag-kinds compile %s --phase=check --sig=k(Record(p[type=nestedarray(Record,(4,));offset=0];16;False)[::1])
# A nested array of records in a signature (numba's nestedarray holds scalars here).
from numba import cuda


@cuda.jit(device=True)
def k(a):
    a[0].p[0] = 1
# CHECK:STDERR: pykc: error: invalid `--sig 'k(Record(p[type=nestedarray(Record,(4,));offset=0];16;False)[::1])'`: a nested array holds scalars, found `Record` [invalid-signature]
# CHECK:STDERR:
