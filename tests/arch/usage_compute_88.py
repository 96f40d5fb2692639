# ARGS: compile %s --arch compute_88 --no-cache -o %t
# EXIT: 2
"""sm_88 gets sm_87 PTX: compute_88 is refused, naming compute_87."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --arch compute_88: `compute_88` PTX is newer than LLVM 19 writes (PTX up to compute_90a); `compute_87` PTX runs on sm_88 and every later GPU through the driver's JIT
