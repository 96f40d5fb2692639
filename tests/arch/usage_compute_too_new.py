# ARGS: compile %s --arch sm_120,compute_120 --no-cache -o %t
# EXIT: 2
"""compute_120 is an arch nvJitLink knows, but LLVM 19 writes PTX up to compute_90a:
refused, naming the PTX target whose code the driver JIT-compiles for sm_120."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --arch compute_120: `compute_120` PTX is newer than LLVM 19 writes (PTX up to compute_90a); `compute_90` PTX runs on sm_120 and every later GPU through the driver's JIT
