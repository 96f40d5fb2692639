# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Project decorators pykc does not follow: one that adds options (`fastmath=True`) and
one whose class uses the function for more than `cuda.jit`. The functions are not
compiled, with a warning each."""
from numba import cuda

from .sibling.jit_wrappers import fast_kernel, traced


# CHECK:STDERR: project_decorators_ignored.py:[[@LINE+4]]:2: warning: decorator ignored: `fast_kernel` (sibling/jit_wrappers.py:38) is not a wrapper pykc follows, one that only applies `cuda.jit` to the function (`def fast_kernel(f): return cuda.jit(f)`, or a class that passes the function it stores to `cuda.jit`); `scale` is not compiled [invalid-decorator]
# CHECK:STDERR: @fast_kernel
# CHECK:STDERR:  ^~~~~~~~~~~
# CHECK:STDERR:
@fast_kernel
def scale(x, a):
    i = cuda.grid(1)
    x[i] *= a


# CHECK:STDERR: project_decorators_ignored.py:[[@LINE+4]]:2: warning: decorator ignored: `traced` (sibling/jit_wrappers.py:42) is not a wrapper pykc follows, one that only applies `cuda.jit` to the function (`def traced(f): return cuda.jit(f)`, or a class that passes the function it stores to `cuda.jit`); `shift` is not compiled [invalid-decorator]
# CHECK:STDERR: @traced
# CHECK:STDERR:  ^~~~~~
# CHECK:STDERR:
@traced
def shift(x, n):
    i = cuda.grid(1)
    x[i] += n
