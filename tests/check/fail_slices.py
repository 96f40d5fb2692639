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
    x[0, :] += 1


@cuda.jit("void(float32[:, ::1], complex64[::1], int32[::1], float64[::1], uint32[::1])")
def slice_stores(a, z, n, d, u):
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:15: error: cannot assign `complex64` to `array(float32, 1d, C)`: complex numbers cannot be stored in a real array [invalid-assignment]
    # CHECK:STDERR:     a[0, :] = z[0]
    # CHECK:STDERR:               ^~~~
    # CHECK:STDERR:
    a[0, :] = z[0]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:14: error: cannot assign `array(complex64, 1d, C)` to `array(float32, 2d, C)`: complex numbers cannot be stored in a real array [invalid-assignment]
    # CHECK:STDERR:     a[1:3] = z
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    a[1:3] = z
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:14: error: cannot assign `Tuple(int64, float64)` to `array(float64, 1d, C)`: a slice takes a number, an array or a tuple of one type [invalid-assignment]
    # CHECK:STDERR:     d[0:2] = (1, 2.5)
    # CHECK:STDERR:              ^~~~~~~~
    # CHECK:STDERR:
    d[0:2] = (1, 2.5)
    d[0:2] = (1.0, 2.5)
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:14: error: cannot assign `UniTuple(float64 x 2)` to `array(float32, 2d, C)`: a tuple can only be assigned to a 1-d slice [invalid-assignment]
    # CHECK:STDERR:     a[1:3] = (1.0, 2.0)
    # CHECK:STDERR:              ^~~~~~~~~~
    # CHECK:STDERR:
    a[1:3] = (1.0, 2.0)
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: cannot store the `float64` result of `/=` in `array(int32, 1d, C)`: numba's in-place operators on arrays cast only within a kind (NumPy's `same_kind`) [invalid-assignment]
    # CHECK:STDERR:     n[1:3] /= 2
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    n[1:3] /= 2
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: cannot store the `float64` result of `+=` in `array(int32, 1d, C)`: numba's in-place operators on arrays cast only within a kind (NumPy's `same_kind`) [invalid-assignment]
    # CHECK:STDERR:     n[1:3] += d
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    n[1:3] += d
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: cannot store the `float64` result of `-=` in `array(int32, 1d, C)`: numba's in-place operators on arrays cast only within a kind (NumPy's `same_kind`) [invalid-assignment]
    # CHECK:STDERR:     n[:] -= 0.5
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    n[:] -= 0.5
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: cannot store the `complex128` result of `+=` in `array(float64, 1d, C)`: numba's in-place operators on arrays cast only within a kind (NumPy's `same_kind`) [invalid-assignment]
    # CHECK:STDERR:     d[:] += z
    # CHECK:STDERR:     ^~~~~~~~~
    # CHECK:STDERR:
    d[:] += z
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: unsupported operand types for `//=`: `array(float64, 1d, C)` and `complex64` [mismatched-operand-types]
    # CHECK:STDERR:     d[:] //= z[0]
    # CHECK:STDERR:     ^~~~~~~~~~~~~
    # CHECK:STDERR:
    d[:] //= z[0]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: cannot store the `complex64` result of `+=` in `array(float32, 1d, C)`: numba's in-place operators on arrays cast only within a kind (NumPy's `same_kind`) [invalid-assignment]
    # CHECK:STDERR:     a[0] += z[1:3]
    # CHECK:STDERR:     ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    a[0] += z[1:3]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: unsupported operand types for `<<=`: `array(float32, 1d, A)` and `int64` [mismatched-operand-types]
    # CHECK:STDERR:     a[:, 0] <<= 1
    # CHECK:STDERR:     ^~~~~~~~~~~~~
    # CHECK:STDERR:
    a[:, 0] <<= 1
    n[:] <<= 1
    n[::2] |= n[1::2]
    a[1:3] = a[0]
    a[1:3] += a[0]
    # CHECK:STDERR: fail_slices.py:[[@LINE+4]]:5: error: cannot store the `int64` result of `+=` in `array(uint32, 1d, C)`: numba's in-place operators on arrays cast only within a kind (NumPy's `same_kind`) [invalid-assignment]
    # CHECK:STDERR:     u[1:3] += 1
    # CHECK:STDERR:     ^~~~~~~~~~~
    # CHECK:STDERR:
    u[1:3] += 1
    u[1:3] += u[0:2]
    a[0] += n[0:4]
    a[0] -= a
