# ARGS: --diag-kinds compile %s --phase=check
# `for` over arrays, tuples, enumerate and zip: what cannot be iterated.
from numba import cuda

MIXED = (1, 2.5)


@cuda.jit("void(float32[::1], int64)")
def k(x, n):
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:14: error: cannot iterate over `int64`: kernels iterate over `range(...)`, arrays, tuples, `enumerate` and `zip` [unsupported-construct]
    # CHECK:STDERR:     for v in n:
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    for v in n:
        pass
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:14: error: iterating over `Tuple(int64, float64)` is not supported: only tuples whose elements all have one type can be iterated [unsupported-construct]
    # CHECK:STDERR:     for v in MIXED:
    # CHECK:STDERR:              ^~~~~
    # CHECK:STDERR:
    for v in MIXED:
        pass
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:30: error: `enumerate`'s start must be an integer [invalid-call]
    # CHECK:STDERR:     for i, v in enumerate(x, 1.5):
    # CHECK:STDERR:                              ^~~
    # CHECK:STDERR:
    for i, v in enumerate(x, 1.5):
        pass
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:17: error: `enumerate` takes 1 or 2 arguments, found 0 [wrong-arg-count]
    # CHECK:STDERR:     for i, v in enumerate():
    # CHECK:STDERR:                 ^~~~~~~~~~~
    # CHECK:STDERR:
    for i, v in enumerate():
        pass
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:24: error: cannot iterate over `int64`: kernels iterate over `range(...)`, arrays, tuples, `enumerate` and `zip` [unsupported-construct]
    # CHECK:STDERR:     for a, b in zip(x, 3):
    # CHECK:STDERR:                        ^
    # CHECK:STDERR:
    for a, b in zip(x, 3):
        pass
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:9: error: cannot unpack a tuple of 2 into 3 targets [invalid-assignment]
    # CHECK:STDERR:     for a, b, c in zip(x, x):
    # CHECK:STDERR:         ^~~~~~~
    # CHECK:STDERR:
    for a, b, c in zip(x, x):
        pass
    for v in x:
        pass
    else:
        pass
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:9: error: `enumerate` can only be iterated by a `for` loop in kernels [unsupported-construct]
    # CHECK:STDERR:     e = enumerate(x)
    # CHECK:STDERR:         ^~~~~~~~~~~~
    # CHECK:STDERR:
    e = enumerate(x)
    # CHECK:STDERR: fail_api_iteration.py:[[@LINE+4]]:9: error: `zip` can only be iterated by a `for` loop in kernels [unsupported-construct]
    # CHECK:STDERR:     z = zip(x, x)
    # CHECK:STDERR:         ^~~~~~~~~
    # CHECK:STDERR:
    z = zip(x, x)
