# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_kernel_return.py:[[@LINE+4]]:12: error: a kernel cannot return a value (found `x[0]`) [kernel-return-value]
    # CHECK:STDERR:     return x[0]
    # CHECK:STDERR:            ^~~~
    # CHECK:STDERR:
    return x[0]


@cuda.jit(device=True)
def mixed(v):
    if v > 0:
        return v
    # CHECK:STDERR: fail_kernel_return.py:[[@LINE+4]]:12: error: `mixed` returns `UniTuple(float32 x 2)` here and `float32` elsewhere [return-type]
    # CHECK:STDERR:     return (v, v)
    # CHECK:STDERR:            ^~~~~~
    # CHECK:STDERR:
    return (v, v)


@cuda.jit("void(float32[::1])")
def calls(x):
    x[0] = mixed(x[0])
