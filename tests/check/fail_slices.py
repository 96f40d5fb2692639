# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[:, ::1], float32)")
def k(x, f):
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:13: error: slice bounds must be integers, found `float32` [invalid-index]
    # CHECK:STDERR:     a = x[0:f]
    # CHECK:STDERR:             ^
    # CHECK:STDERR:
    a = x[0:f]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:13: error: slice step cannot be zero [invalid-index]
    # CHECK:STDERR:     b = x[::0]
    # CHECK:STDERR:             ^
    # CHECK:STDERR:
    b = x[::0]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:11: error: too many indices for `array(float32, 2d, C)`: found 3 [invalid-index]
    # CHECK:STDERR:     c = x[0, 1, :]
    # CHECK:STDERR:           ^~~~~~~
    # CHECK:STDERR:
    c = x[0, 1, :]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: augmented assignment to a slice of an array (`a[1:3] += x`) is not supported in kernels yet: write `a[1:3] = ...` or loop over the elements [unsupported-construct]
    # CHECK:STDERR:     x[0, :] += 1
    # CHECK:STDERR:     ^~~~~~~
    # CHECK:STDERR:
    x[0, :] += 1


@cuda.jit("void(float32[:, ::1], complex64[::1])")
def slice_stores(a, z):
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:15: error: cannot assign `complex64` to `array(float32, 1d, C)`: a slice takes a number or an array of the same dimensions [invalid-assignment]
    # CHECK:STDERR:     a[0, :] = z[0]
    # CHECK:STDERR:               ^~~~
    # CHECK:STDERR:
    a[0, :] = z[0]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:14: error: cannot assign `array(float32, 1d, C)` to `array(float32, 2d, C)`: a slice takes a number or an array of the same dimensions [invalid-assignment]
    # CHECK:STDERR:     a[1:3] = a[0]
    # CHECK:STDERR:              ^~~~
    # CHECK:STDERR:
    a[1:3] = a[0]
