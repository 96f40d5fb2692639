# ARGS: cache populate %s --arch sm_90 --cache-dir %t --link %d/inputs/nowhere.cu
# EXIT: 1
# MASK: \d+\.\d\d s$
# MASK: [^\s`]*tests/cache/populate/
from numba import cuda

N = 2


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0 + N
# CHECK:STDERR: pykc: error: --link [[MASKED]]inputs/nowhere.cu: cannot read `[[MASKED]]inputs/nowhere.cu` to link it: No such file or directory
# CHECK:STDERR:
# CHECK:STDOUT: populate: 1 jobs, 0 hits, 0 compiled, 1 failed, [[MASKED]]
