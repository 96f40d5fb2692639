# ARGS: --diag-kinds compile --sig k(float64[:,::1]) -D N=3 --arch sm_90 --phase=check --dump-typed %s
# Repeatable options take one value per flag, so FILE may come after them.
from numba import cuda

N = 4


@cuda.jit
def k(x):
    x[0, 0] = N
# CHECK:STDOUT: kernel k k__f64a2C void(float64[:, ::1])
# CHECK:STDOUT:   x: array(float64, 2d, C)
