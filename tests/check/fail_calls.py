# ARGS: --diag-kinds compile %s --phase=check --dump-typed
import math

from numba import cuda


@cuda.jit(device=True)
def two(a, b):
    return a + b


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:12: error: `two` takes 2 arguments, found 1 [wrong-arg-count]
    # CHECK:STDERR:     x[0] = two(1)
    # CHECK:STDERR:            ^~~~~~
    # CHECK:STDERR:
    x[0] = two(1)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:12: error: `math.sin` takes 1 argument, found 2 [wrong-arg-count]
    # CHECK:STDERR:     x[1] = math.sin(1.0, 2.0)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[1] = math.sin(1.0, 2.0)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:12: error: `len` takes an array or a tuple, found `int64` [invalid-call]
    # CHECK:STDERR:     x[2] = len(3)
    # CHECK:STDERR:            ^~~~~~
    # CHECK:STDERR:
    x[2] = len(3)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:12: error: `array(float32, 1d, C)` is not callable [not-callable]
    # CHECK:STDERR:     x[3] = x(1)
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    x[3] = x(1)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:9: error: `range` can only be iterated by a `for` loop in kernels [unsupported-construct]
    # CHECK:STDERR:     r = range(3)
    # CHECK:STDERR:         ^~~~~~~~
    # CHECK:STDERR:
    r = range(3)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:5: error: `cuda.syncthreads` takes no arguments, found 1 [wrong-arg-count]
    # CHECK:STDERR:     cuda.syncthreads(1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.syncthreads(1)


@cuda.jit(device=True)
def lerp(a, b, t):
    return a + (b - a) * t


@cuda.jit("void(float64[::1])")
def keywords(x):
    x[0] = lerp(x[0], t=0.5, b=1.0)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:23: error: `lerp` has no parameter `c` [invalid-call]
    # CHECK:STDERR:     x[1] = lerp(x[0], c=1.0)
    # CHECK:STDERR:                       ^~~~~
    # CHECK:STDERR:
    x[1] = lerp(x[0], c=1.0)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:33: error: `lerp` got two values for `a` [invalid-call]
    # CHECK:STDERR:     x[2] = lerp(x[0], 1.0, 2.0, a=3.0)
    # CHECK:STDERR:                                 ^~~~~
    # CHECK:STDERR:
    x[2] = lerp(x[0], 1.0, 2.0, a=3.0)
    # CHECK:STDERR: fail_calls.py:[[@LINE+4]]:12: error: `lerp` is missing the argument `b` [invalid-call]
    # CHECK:STDERR:     x[3] = lerp(x[0], t=1.0)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[3] = lerp(x[0], t=1.0)
