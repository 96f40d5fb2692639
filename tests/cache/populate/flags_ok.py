# ARGS: cache populate %s --arch sm_80,sm_90 --cache-dir %t -O 1 --use-fast-math --lineinfo --maxrregcount 32 --no-alias-versioning -D N=3
# MASK: [^\s`]*tests/cache/populate/
# MASK: \d+\.\d\d s$
# Every codegen flag of `pykc compile` is accepted (populate_flags_test.py
# checks that compile with the same flags then hits).
from numba import cuda

N = 2


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0 + N
# CHECK:STDOUT: populate: 2 jobs, 0 hits, 2 compiled, 0 failed, [[MASKED]]
