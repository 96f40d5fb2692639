"""numba.cuda device functions imported by tests/check/sibling_helpers.py."""
import math

from numba import cuda, types  # the kernel file imports `cuda` alone: one meaning

from .limits import LIMIT


@cuda.jit(device=True)
def clamp(v):
    return min(max(v, -LIMIT), LIMIT) * math.pi


@cuda.jit
def helper_kernel(x):
    # This module's kernel (no device=True): never pasted.
    x[0] = clamp(x[0])
