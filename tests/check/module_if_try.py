# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Module-level `if` and `try` (issue 21 item 2): an `if` whose condition folds (module
constants, `-D`, numba version gates through `packaging.version`) binds what the branch
Python takes at import binds; a `try` binds what its body binds (the `except` clauses
are the fallbacks of environments without the library)."""
import numba
from numba import cuda
from packaging.version import Version

try:
    from math import nan
except ImportError:
    nan = float("nan")

try:
    import cupy
except ImportError:
    cupy = None

USE_EXAMPLE = False
if USE_EXAMPLE:
    PREAMBLE = 5
elif not USE_EXAMPLE:
    PREAMBLE = 25
else:
    PREAMBLE = 0

if Version(numba.__version__) >= Version("0.51.0"):
    @cuda.jit(device=True)
    def atomic_nanmax(ary, idx, val):
        return cuda.atomic.nanmax(ary, idx, val)
elif Version(numba.__version__) <= Version("0.49.1"):
    @cuda.jit(device=True)
    def atomic_nanmax(ary, idx, val):
        return cuda.atomic.max(ary, idx, val)
else:
    raise ImportError("needs numba != 0.50")

if Version(numba.__version__) < Version("0.57"):
    WINDOW = 1
else:
    WINDOW = 2


@cuda.jit("void(float64[::1])")
def kernel(x):
    i = cuda.grid(1)
    if i < x.size and i >= PREAMBLE * WINDOW:
        atomic_nanmax(x, i, nan)
        x[i] += cupy.pi
# CHECK:STDOUT: kernel kernel kernel__f64a1C void(float64[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(float64, 1d, C)
# CHECK:STDOUT: device atomic_nanmax pykc_device__atomic_nanmax__f64a1C_i64_f64 float64(float64[::1], int64, float64)
# CHECK:STDOUT:   ary: array(float64, 1d, C)
# CHECK:STDOUT:   idx: int64
# CHECK:STDOUT:   val: float64
