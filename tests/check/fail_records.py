# ARGS: --diag-kinds compile %s --phase=check
# Records: unknown fields, non-literal field names, storing what a field
# cannot hold, storing a number into a record element, malformed dtypes.
import numpy as np
from numba import cuda, from_dtype, void

rec = from_dtype(np.dtype([("x", np.float32), ("y", np.int32)]))
# CHECK:STDERR: fail_records.py:[[@LINE+4]]:17: error: a record field is `('name', scalar type)` or `('name', scalar type, shape)` [invalid-type]
# CHECK:STDERR: bad = np.dtype([("x", np.float32, 3, 4)])
# CHECK:STDERR:                 ^~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
bad = np.dtype([("x", np.float32, 3, 4)])

# CHECK:STDERR: fail_records.py:[[@LINE+4]]:11: error: a kernel cannot take a record (`Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)`) by value yet: pass an array of records [invalid-signature]
# CHECK:STDERR: @cuda.jit(void(rec, rec[::1]))
# CHECK:STDERR:           ^~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@cuda.jit(void(rec, rec[::1]))
def by_value(r, a):
    loc = cuda.local.array(4, rec)


@cuda.jit(void(rec[::1], rec[::1]))
def k(a, b):
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:5: error: `Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)` has no attribute `z` [unknown-attribute]
    # CHECK:STDERR:     a[0].z = 1
    # CHECK:STDERR:     ^~~~~~
    # CHECK:STDERR:
    a[0].z = 1
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:5: error: `Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)` has no attribute `w` [unknown-attribute]
    # CHECK:STDERR:     a[0]["w"] += 1
    # CHECK:STDERR:     ^~~~~~~~~
    # CHECK:STDERR:
    a[0]["w"] += 1
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:12: error: cannot assign `'x'` to a variable: only numbers, arrays and tuples can be stored in variables [invalid-assignment]
    # CHECK:STDERR:     name = "x"
    # CHECK:STDERR:            ^~~
    # CHECK:STDERR:
    name = "x"
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:10: error: a record is indexed by a field name (a string literal), found `name` [invalid-index]
    # CHECK:STDERR:     a[0][name] = 2
    # CHECK:STDERR:          ^~~~
    # CHECK:STDERR:
    a[0][name] = 2
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:14: error: cannot store `complex128` into field `x` of type `float32` [invalid-assignment]
    # CHECK:STDERR:     a[0].x = 1j
    # CHECK:STDERR:              ^~
    # CHECK:STDERR:
    a[0].x = 1j
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:12: error: cannot store `float32` into an element of `array(Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False), 1d, C)`: a record element takes a record of its own type [invalid-assignment]
    # CHECK:STDERR:     a[0] = b[0].x
    # CHECK:STDERR:            ^~~~~~
    # CHECK:STDERR:
    a[0] = b[0].x
    # CHECK:STDERR: fail_records.py:[[@LINE+4]]:9: error: `float32` has no attribute `y` [unknown-attribute]
    # CHECK:STDERR:     c = a[0].x.y
    # CHECK:STDERR:         ^~~~~~~~
    # CHECK:STDERR:
    c = a[0].x.y

