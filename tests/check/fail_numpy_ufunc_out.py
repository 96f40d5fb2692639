# ARGS: --diag-kinds compile %s --phase=check
# NumPy's ufuncs on arrays compile with an output array (numba-cuda's ex_cuda_ufunc
# example: `np.sin(x, r)`); what numba-cuda refuses is an error saying what works.
import math

import numpy as np
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1], int32[::1], float32[:, ::1])")
def f(r, x, n, m):
    np.sin(x, r)
    np.sin(x, out=r)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:5: error: `np.sin` on arrays needs an output array in kernels (a kernel cannot allocate the result): `np.sin(x, out)` [invalid-call]
    # CHECK:STDERR:     np.sin(x)
    # CHECK:STDERR:     ^~~~~~~~~
    # CHECK:STDERR:
    np.sin(x)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:5: error: `math.sin` takes numbers; on arrays, NumPy's ufunc with an output array computes every element (`np.sin(x, out)`), or call it per element (`out[i] = math.sin(x[i])`) [invalid-call]
    # CHECK:STDERR:     math.sin(x)
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    math.sin(x)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:22: error: `np.sin` in kernels takes its inputs and an output array (`out=`), found `where=` [invalid-call]
    # CHECK:STDERR:     np.sin(x, out=r, where=True)
    # CHECK:STDERR:                      ^~~~~~~~~~
    # CHECK:STDERR:
    np.sin(x, out=r, where=True)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:15: error: the output of `np.sin` must be an array, found `3` [invalid-call]
    # CHECK:STDERR:     np.sin(x, 3)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    np.sin(x, 3)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:5: error: `np.sin` takes 1 input and an output array, found 3 arguments [wrong-arg-count]
    # CHECK:STDERR:     np.sin(x, r, r)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    np.sin(x, r, r)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:15: error: cannot store `np.sin`'s `float32` results in `array(int32, 1d, C)`: numba's ufuncs cast their output only within a kind (NumPy's `same_kind`) [invalid-call]
    # CHECK:STDERR:     np.sin(x, n)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    np.sin(x, n)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:12: error: `np.sin`'s input has 2 dimensions, more than its output array's 1 [invalid-call]
    # CHECK:STDERR:     np.sin(m, r)
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    np.sin(m, r)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:19: error: `np.arctan2` on arrays takes real numbers and arrays of them, found `complex128` [invalid-call]
    # CHECK:STDERR:     np.arctan2(x, 1j, r)
    # CHECK:STDERR:                   ^~
    # CHECK:STDERR:
    np.arctan2(x, 1j, r)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:5: error: `np.maximum` on arrays is not supported in kernels yet: call it per element (`out[i] = np.maximum(x[i], y[i])`) [unsupported-construct]
    # CHECK:STDERR:     np.maximum(x, r)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    np.maximum(x, r)
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:5: error: `np.add` takes 2 arguments, found 1 [wrong-arg-count]
    # CHECK:STDERR:     np.add(x[0])
    # CHECK:STDERR:     ^~~~~~~~~~~~
    # CHECK:STDERR:
    np.add(x[0])
    # CHECK:STDERR: fail_numpy_ufunc_out.py:[[@LINE+4]]:19: error: `np.fmax` takes real numbers, found `complex128` [invalid-call]
    # CHECK:STDERR:     np.fmax(x[0], 1j)
    # CHECK:STDERR:                   ^~
    # CHECK:STDERR:
    np.fmax(x[0], 1j)
