# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Calls that leave out an argument without a default, or one whose default pykc cannot
fold; a left-out None that the function assigns."""
import numpy as np
from numba import cuda

HOST = np.zeros(3)


@cuda.jit(device=True)
def pair(a, b, c=1):
    return a + b + c


@cuda.jit(device=True)
def host_default(a, table=HOST):
    return a


@cuda.jit(device=True)
def reassigned(a, out=None):
    # CHECK:STDERR: fail_param_defaults.py:[[@LINE+4]]:8: error: `out` is left out (its default is None) and assigned in the function: pykc types a parameter whose default is None only where the function does not assign it [unsupported-construct]
    # CHECK:STDERR:     if out is None:
    # CHECK:STDERR:        ^~~
    # CHECK:STDERR:
    if out is None:
        out = 1
    return a + out


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_param_defaults.py:[[@LINE+4]]:12: error: `pair` takes 2 to 3 arguments, found 1 [wrong-arg-count]
    # CHECK:STDERR:     x[0] = pair(x[0])
    # CHECK:STDERR:            ^~~~~~~~~~
    # CHECK:STDERR:
    x[0] = pair(x[0])
    # CHECK:STDERR: fail_param_defaults.py:[[@LINE+4]]:12: error: `pair` takes 2 to 3 arguments, found 4 [wrong-arg-count]
    # CHECK:STDERR:     x[1] = pair(x[0], x[1], 2, 3)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[1] = pair(x[0], x[1], 2, 3)
    # CHECK:STDERR: fail_param_defaults.py:[[@LINE+4]]:12: error: `pair` is missing the argument `b` [invalid-call]
    # CHECK:STDERR:     x[2] = pair(x[0], c=2)
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[2] = pair(x[0], c=2)
    # CHECK:STDERR: fail_param_defaults.py:[[@LINE+4]]:12: error: the call leaves out `table`, whose default `HOST` is not a number, bool, None or tuple of them: pass `table` [invalid-call]
    # CHECK:STDERR:     x[3] = host_default(x[0])
    # CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x[3] = host_default(x[0])
    x[4] = reassigned(x[0])
