# ARGS: cache populate %s --arch sm_80,sm_90 --cache-dir %t -j 2
# MASK: \d+\.\d\d s$
# One -j budget for populate's workers and each compile's kernel partitions
# (docs/compile.md): two jobs of a three-kernel file on two threads.
from numba import cuda


@cuda.jit("void(float32[::1])")
def a(x):
    x[cuda.grid(1)] += 1.0


@cuda.jit("void(float32[::1])")
def b(x):
    x[cuda.grid(1)] *= 2.0


@cuda.jit("void(int32[::1])")
def c(x):
    x[cuda.grid(1)] -= 1
# CHECK:STDOUT: populate: 2 jobs, 0 hits, 2 compiled, 0 failed, [[MASKED]]
