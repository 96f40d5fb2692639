# ARGS: --diag-kinds compile %s --emit sass
# EXIT: 2
"""`--emit` takes the stages `pykc compile` writes (driver/stages.cpp); SASS is
inspect's: a usage error naming them."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --emit sass: expected llvm, ptx or cubin
