# ARGS: cache populate %s --arch sm_90 --cache-dir %t --spec %d/specs/opt_range.json
# EXIT: 2
# MASK: \d+\.\d\d s$
# MASK: [^\s`]*tests/cache/populate/
from numba import cuda

N = 2


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0 + N
# CHECK:STDERR: pykc: error: --spec `[[MASKED]]specs/opt_range.json`: `x.py`: `opt` must be an integer from 0 to 3
