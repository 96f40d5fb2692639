"""Device functions and settings that tests/gpu/kernels/api_kernels7.py reads as a module
object (`from helpers import simt_core`, then `simt_core.searchsorted_right(...)`), as
stumpy reads its `core` and `config` modules."""
import tempfile

from numba import cuda

_DEFAULTS = {
    "THRESHOLD": 0.25,
    "THREADS_PER_BLOCK": 512,
}

THRESHOLD = _DEFAULTS["THRESHOLD"]
OFFSET = 3


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


def array_to_temp_file(a):
    # Host code: never pasted into a kernel file.
    f = tempfile.NamedTemporaryFile(delete=False)
    return f.name
