# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig short(float32[::1]) --sig partial(float32[::1])
"""Parameter forms numba-cuda does not compile, eager signatures with fewer types than
parameters (numba refuses them: only a launch may leave arguments out), and launches
(`--sig`) that leave out a parameter without a foldable default."""
import numpy as np
from numba import cuda

HOST = np.zeros(3)


@cuda.jit(device=True)
# CHECK:STDERR: fail_param_forms.py:[[@LINE+4]]:5: error: kernels and device functions take plain positional parameters only (no `*args`, keyword-only, positional-only or `**kwargs`) [unsupported-construct]
# CHECK:STDERR: def star(a, *rest):
# CHECK:STDERR:     ^~~~
# CHECK:STDERR:
def star(a, *rest):
    return a


@cuda.jit(device=True)
# CHECK:STDERR: fail_param_forms.py:[[@LINE+4]]:5: error: kernels and device functions take plain positional parameters only (no `*args`, keyword-only, positional-only or `**kwargs`) [unsupported-construct]
# CHECK:STDERR: def keyword_only(a, *, scale=2):
# CHECK:STDERR:     ^~~~~~~~~~~~
# CHECK:STDERR:
def keyword_only(a, *, scale=2):
    return a * scale


# CHECK:STDERR: fail_param_forms.py:[[@LINE+4]]:11: error: signature `void(float32[::1])` has 1 argument type(s), but `decorated` takes 2 [invalid-signature]
# CHECK:STDERR: @cuda.jit("void(float32[::1])")
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(float32[::1])")
def decorated(x, criterion=-1):
    x[0] = criterion


@cuda.jit
# CHECK:STDERR: fail_param_forms.py:[[@LINE+4]]:5: error: signature `void(float32[::1])` has 1 argument type(s), but `short` takes 3 [invalid-signature]
# CHECK:STDERR: def short(x, y, criterion=-1):
# CHECK:STDERR:     ^~~~~
# CHECK:STDERR:
def short(x, y, criterion=-1):
    x[0] = criterion


@cuda.jit
# CHECK:STDERR: fail_param_forms.py:[[@LINE+4]]:22: error: a launch of `partial` leaves out `table`, whose default is not a number, bool, None or tuple of them: give its type in `--sig` [invalid-signature]
# CHECK:STDERR: def partial(x, table=HOST):
# CHECK:STDERR:                      ^~~~
# CHECK:STDERR:
def partial(x, table=HOST):
    x[0] = 1
