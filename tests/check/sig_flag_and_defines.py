# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(float64[:,::1]) -D N=3 -D SHAPE=(2,3) -D F=2.5
from numba import cuda

N = 4
SHAPE = (1, 1)
F = 1


@cuda.jit
def k(x):
    buf = cuda.local.array(SHAPE, "float64")
    buf[1, 2] = F * N
    x[0, 0] = buf[1, 2]
# CHECK:STDOUT: kernel k k__f64a2C void(float64[:, ::1])
# CHECK:STDOUT:   buf: array(float64, 2d, C)
# CHECK:STDOUT:   x: array(float64, 2d, C)
