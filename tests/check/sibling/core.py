"""Device functions and host helpers read by tests/check/sibling_module_objects.py as
`core.NAME`; only what kernels read is pasted (host helpers and their imports stay)."""
import math
import tempfile

from numba import cuda

from . import config


@cuda.jit(device=True)
def searchsorted_right(a, v):
    lo, hi = 0, a.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if v < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@cuda.jit(device=True)
def safe_denominator(d):
    return max(d, SMALL) * math.sqrt(2.0)


SMALL = 1e-12


def array_to_temp_file(a):
    # Host code the kernel file calls on the host: never pasted.
    f = tempfile.NamedTemporaryFile(delete=False)
    return f.name, config.NAME
