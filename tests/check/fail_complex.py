# ARGS: --diag-kinds compile %s --phase=check
# What complex numbers cannot do in kernels: ordering, storing into real arrays,
# real-only functions, `%`, cmath.rect of complex numbers, cmath.log's arity.
import cmath
import math

from numba import cuda, float32


@cuda.jit("void(complex64[::1], float32[::1])")
def k(a, f):
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:9: error: unsupported operand types for `<`: `complex64` and `complex64` [mismatched-operand-types]
    # CHECK:STDERR:     b = a[0] < a[1]
    # CHECK:STDERR:         ^~~~~~~~~~~
    # CHECK:STDERR:
    b = a[0] < a[1]
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:12: error: cannot store `complex64` into an element of `array(float32, 1d, C)` [invalid-assignment]
    # CHECK:STDERR:     f[0] = a[0]
    # CHECK:STDERR:            ^~~~
    # CHECK:STDERR:
    f[0] = a[0]
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:18: error: `math.sin` takes numbers, found `complex64` [invalid-call]
    # CHECK:STDERR:     c = math.sin(a[0])
    # CHECK:STDERR:                  ^~~~
    # CHECK:STDERR:
    c = math.sin(a[0])
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:17: error: `float32` takes numbers, found `complex64` [invalid-call]
    # CHECK:STDERR:     d = float32(a[0])
    # CHECK:STDERR:                 ^~~~
    # CHECK:STDERR:
    d = float32(a[0])
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:9: error: unsupported operand types for `%`: `complex64` and `int64` [mismatched-operand-types]
    # CHECK:STDERR:     e = a[0] % 2
    # CHECK:STDERR:         ^~~~~~~~
    # CHECK:STDERR:
    e = a[0] % 2
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:20: error: `cmath.rect` takes real numbers, found `complex64` [invalid-call]
    # CHECK:STDERR:     g = cmath.rect(a[0], 1.0)
    # CHECK:STDERR:                    ^~~~
    # CHECK:STDERR:
    g = cmath.rect(a[0], 1.0)
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:9: error: unsupported operand types for `//`: `complex64` and `complex64` [mismatched-operand-types]
    # CHECK:STDERR:     h = a[0] // a[1]
    # CHECK:STDERR:         ^~~~~~~~~~~~
    # CHECK:STDERR:
    h = a[0] // a[1]
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:13: error: `max` takes numbers, found `complex64` [invalid-call]
    # CHECK:STDERR:     m = max(a[0], a[1])
    # CHECK:STDERR:             ^~~~
    # CHECK:STDERR:
    m = max(a[0], a[1])
    # CHECK:STDERR: fail_complex.py:[[@LINE+4]]:9: error: `cmath.log` takes 1 or 2 arguments, found 3 [wrong-arg-count]
    # CHECK:STDERR:     l = cmath.log(a[0], 2.0, 3.0)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    l = cmath.log(a[0], 2.0, 3.0)
