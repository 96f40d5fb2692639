# ARGS: --diag-kinds compile %s --phase=check
"""A name bound under a module-level `if` whose condition pykc cannot evaluate when
compiling (it depends on the host: the environment, a function's result) is an error
where a kernel uses it, naming the `if`; names bound elsewhere are unaffected."""
import os

from numba import cuda

if os.environ.get("FAST") == "1":
    SCALE = 2.0

    @cuda.jit(device=True)
    def step(v):
        return v * SCALE
else:
    def step(v):
        return v

OFFSET = 1.0


@cuda.jit("void(float64[::1])")
def kernel(x):
    # CHECK:STDERR: fail_module_if.py:[[@LINE+4]]:12: error: `step` is bound under the module-level `if` of line [[@LINE-15]], whose condition pykc cannot evaluate when compiling: bind it outside the `if`, or make the condition a module constant (`-D NAME=VALUE` sets one) [host-global]
    # CHECK:STDERR:     x[0] = step(x[0]) + OFFSET
    # CHECK:STDERR:            ^~~~
    # CHECK:STDERR:
    x[0] = step(x[0]) + OFFSET
