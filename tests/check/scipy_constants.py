# ARGS: --diag-kinds compile %s --phase=check --dump-typed -D m_e=9.1093837015e-31
"""scipy.constants in kernels (fbpic): the values every SciPy since 1.4 gives alike (the
SI's exact constants, conventions, prefixes) are float64 constants; a measured one
(`m_e`) comes from `-D`, which replaces its import so that constants computed from it
(`INV_MC`) fold."""
import scipy.constants as sc
from numba import cuda
from scipy.constants import c, e, hbar, m_e, milli

INV_MC = 1.0 / (m_e * c)
EV = e * 1.0


@cuda.jit("void(float64[::1])")
def k(x):
    i = cuda.grid(1)
    momentum = x[i] * INV_MC
    energy = EV * hbar / milli + sc.k
    x[i] = momentum + energy * sc.N_A
# CHECK:STDOUT: kernel k k__f64a1C void(float64[::1])
# CHECK:STDOUT:   energy: float64
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   momentum: float64
# CHECK:STDOUT:   x: array(float64, 1d, C)
