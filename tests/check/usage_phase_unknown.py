# ARGS: --diag-kinds compile %s --phase sass
# EXIT: 2
"""`--phase` takes the stages a compile can stop after: a usage error naming them."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: --phase: sass is not one of check, llvm, ptx or cubin
# CHECK:STDERR: Run with --help for more information.
