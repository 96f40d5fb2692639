# ARGS: compile %s --remote http://127.0.0.1/a?b
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote http://127.0.0.1/a?b: the path `/a?b` has a character other than letters, digits and -._~%/+:@=,!
