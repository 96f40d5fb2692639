"""Negative indices wrap (numba semantics): a select on the index sign stays when the
sign is unknown, and folds away when it is known (cuda.grid, range from 0)."""
from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def wrap(x, k):
    x[k] = 1.0


@cuda.jit("void(float32[::1])")
def no_wrap(x):
    for i in range(x.size):
        x[i] = 2.0
    x[cuda.grid(1)] = 3.0

# PTX-IN wrap: setp\.lt\.s64|selp|shr\.s64|min|max
# PTX-NOT-IN no_wrap: selp
# PTX-NOT-IN no_wrap: setp\.lt\.s64\s+%p\d+, %rd\d+, 0;
