# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    t = (1, 2)
    # CHECK:STDERR: fail_assignment.py:[[@LINE+4]]:5: error: tuples are immutable: cannot assign to an item [invalid-assignment]
    # CHECK:STDERR:     t[0] = 3
    # CHECK:STDERR:     ^~~~
    # CHECK:STDERR:
    t[0] = 3
    # CHECK:STDERR: fail_assignment.py:[[@LINE+4]]:5: error: cannot assign to attribute `x.shape` [invalid-assignment]
    # CHECK:STDERR:     x.shape = (3,)
    # CHECK:STDERR:     ^~~~~~~
    # CHECK:STDERR:
    x.shape = (3,)
    # CHECK:STDERR: fail_assignment.py:[[@LINE+4]]:5: error: cannot unpack a tuple of 2 into 3 targets [invalid-assignment]
    # CHECK:STDERR:     a, b, c = t
    # CHECK:STDERR:     ^~~~~~~
    # CHECK:STDERR:
    a, b, c = t
    # CHECK:STDERR: fail_assignment.py:[[@LINE+4]]:9: error: cannot assign `None` (a call without a result?) to `y` [invalid-assignment]
    # CHECK:STDERR:     y = cuda.syncthreads()
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    y = cuda.syncthreads()
    # CHECK:STDERR: fail_assignment.py:[[@LINE+4]]:9: error: cannot assign `numba.cuda` to a variable: only numbers, arrays and tuples can be stored in variables [invalid-assignment]
    # CHECK:STDERR:     m = cuda
    # CHECK:STDERR:         ^~~~
    # CHECK:STDERR:
    m = cuda
