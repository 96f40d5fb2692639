# ARGS: --diag-kinds inspect %s --emit cubin
# EXIT: 2
"""inspect prints text forms; a cubin is `pykc compile`'s: a usage error that
names the forms (driver/stages.cpp)."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --emit cubin: expected tokens, ast, types, llvm, llvm-opt, ptx, sass, resources or cache-key
