# ARGS: --diag-kinds compile %s --phase=check
# A value that may be None (numba's Optional, from a device function returning None on some
# paths) is used only as a number: testing it against None is reported, not folded.
from numba import cuda


@cuda.jit(device=True)
def find(a, v):
    for j in range(a.shape[0]):
        if a[j] == v:
            return j
    return None


@cuda.jit("void(int32[::1], int64[::1])")
def k(a, out):
    i = cuda.grid(1)
    where = find(a, i)
    # CHECK:STDERR: fail_numba_optional_is_none.py:[[@LINE+4]]:8: error: `where` may be None (numba's Optional: it comes from a device function that returns None on some paths); pykc uses such values only as numbers, where None ends the thread as numba's failed cast does: test for None inside that function [unsupported-construct]
    # CHECK:STDERR:     if where is not None:
    # CHECK:STDERR:        ^~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    if where is not None:
        out[i] = where
    # CHECK:STDERR: fail_numba_optional_is_none.py:[[@LINE+4]]:8: error: `find(a, 3)` may be None (numba's Optional: it comes from a device function that returns None on some paths); pykc uses such values only as numbers, where None ends the thread as numba's failed cast does: test for None inside that function [unsupported-construct]
    # CHECK:STDERR:     if find(a, 3) is None:
    # CHECK:STDERR:        ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    if find(a, 3) is None:
        out[i] = -1
