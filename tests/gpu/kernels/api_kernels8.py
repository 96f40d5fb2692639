"""numba idioms of real code (issue 21), second file: numba's Optional returns (a device
function returning a value on some paths and None on others, as numba-examples' histogram
`compute_bin`), and `raise` in a device function (the thread ends, as numba returns through
every caller). tests/gpu/cases/api_cases8.py runs every kernel here and the same file
imported by numba-cuda itself on the same inputs, and wants the same bytes.

Compile: pykc compile tests/gpu/kernels/api_kernels8.py --arch sm_90 -o <root>/api_kernels8
"""
import math

import numba
import numpy as np
from numba import cuda


@numba.jit(nopython=True)
def compute_bin(x, n, xmin, xmax):
    # numba-examples' histogram helper, verbatim: None for values outside the range.
    if x == xmax:
        return n - 1

    bin = np.int32(n * (np.float64(x) - np.float64(xmin)) / (np.float64(xmax) - np.float64(xmin)))

    if bin < 0 or bin >= n:
        return None
    else:
        return bin


@cuda.jit("void(float32[::1], float32, float32, int32[::1], int32[::1])")
def optional_histogram(x, xmin, xmax, histogram_out, reached):
    """A grid-stride histogram; a value outside [xmin, xmax] ends its thread (numba's cast of
    None), so `reached` counts the elements each thread got past."""
    nbins = histogram_out.shape[0]
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = compute_bin(x[i], nbins, xmin, xmax)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)
        reached[start] += 1


@cuda.jit(device=True)
def first_negative(a, lo, hi):
    for j in range(lo, hi):
        if a[j] < 0:
            return j
    return None


@cuda.jit(device=True)
def checked_sqrt(v):
    if v < 0:
        raise ValueError("negative")
    return math.sqrt(v)


@cuda.jit("void(float64[::1], int64[::1], float64[::1])")
def optional_search(a, found, roots):
    """found[i]: the first negative index in a[i*8:(i+1)*8] (a thread with none ends before
    writing); the call as a statement discards the result (None or not, nothing ends).
    roots[i] = sqrt(a[i]) through a device function that raises for negatives (the thread
    ends, leaving roots[i])."""
    i = cuda.grid(1)
    if i >= found.shape[0]:
        return
    first_negative(a, i * 8, i * 8 + 8)
    roots[i] = checked_sqrt(a[i])
    found[i] = first_negative(a, i * 8, i * 8 + 8)
