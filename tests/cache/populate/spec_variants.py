# ARGS: cache populate %s --arch sm_80,sm_90 --cache-dir %t --spec %d/specs/variants.json
# MASK: [^\s`]*tests/cache/populate/
# MASK: \d+\.\d\d s$
# A list of spec objects compiles the file once per object: 2 x 2 jobs.
from numba import cuda

N = 2


@cuda.jit
def k(x):
    x[0] = 1.0 + N
# CHECK:STDOUT: populate: 4 jobs, 0 hits, 4 compiled, 0 failed, [[MASKED]]
