# ARGS: --diag-kinds compile %s --phase=check --sig=k(Record(p[type=nestedarray(int32,(4,));offset=0];16;False)[::1],Record(q[type=int32;offset=0];4;False)[::1])
# Nested-array fields and whole-record stores: a field's shape must fold to positive
# extents, a record element takes only a record of its own type, and a nested array
# field is not assigned as a whole.
import numpy as np
from numba import cuda

# CHECK:STDERR: fail_record_nested_arrays.py:[[@LINE+4]]:35: error: a nested array field's shape must be a positive integer or a tuple of them known at compile time [invalid-type]
# CHECK:STDERR: bad = np.dtype([("x", np.float32, 0)])
# CHECK:STDERR:                                   ^
# CHECK:STDERR:
bad = np.dtype([("x", np.float32, 0)])


@cuda.jit
def k(a, b):
    # CHECK:STDERR: fail_record_nested_arrays.py:[[@LINE+4]]:12: error: cannot store `Record(q[type=int32;offset=0];4;False)` into an element of `array(Record(p[type=nestedarray(int32, (4,));offset=0];16;False), 1d, C)`: a record element takes a record of its own type [invalid-assignment]
    # CHECK:STDERR:     a[0] = b[0]
    # CHECK:STDERR:            ^~~~
    # CHECK:STDERR:
    a[0] = b[0]
    # CHECK:STDERR: fail_record_nested_arrays.py:[[@LINE+4]]:14: error: cannot store `nestedarray(int32, (4,))` into field `p` of type `nestedarray(int32, (4,))` [invalid-assignment]
    # CHECK:STDERR:     a[0].p = a[1].p
    # CHECK:STDERR:              ^~~~~~
    # CHECK:STDERR:
    a[0].p = a[1].p
