# ARGS: --diag-kinds compile %s --phase=check
"""scipy.constants' measured values (their digits changed with SciPy 1.15's CODATA 2022)
are not built into pykc: a kernel that reads one, or a constant computed from one, is told
which value to give with `-D`."""
import math

from numba import cuda
from scipy.constants import c, m_e, physical_constants

r_e = physical_constants["classical electron radius"][0]
PI_RE_2 = math.pi * r_e**2
INV_MC = 1.0 / (m_e * c)


@cuda.jit("void(float64[::1])")
def k(x):
    i = cuda.grid(1)
    # CHECK:STDERR: fail_scipy_constants.py:[[@LINE+12]]:12: error: `m_e` is `scipy.constants.m_e`, a measured value whose digits depend on the SciPy release (CODATA 2018 until SciPy 1.14, CODATA 2022 since 1.15): give the value your SciPy has with `-D m_e=VALUE` [host-library-constant]
    # CHECK:STDERR:     x[i] = m_e * x[i] + INV_MC + PI_RE_2
    # CHECK:STDERR:            ^~~
    # CHECK:STDERR:
    # CHECK:STDERR: fail_scipy_constants.py:[[@LINE+8]]:25: error: `INV_MC` is computed from `scipy.constants.m_e`, a measured value whose digits depend on the SciPy release (CODATA 2018 until SciPy 1.14, CODATA 2022 since 1.15): give the value your SciPy has with `-D m_e=VALUE` [host-library-constant]
    # CHECK:STDERR:     x[i] = m_e * x[i] + INV_MC + PI_RE_2
    # CHECK:STDERR:                         ^~~~~~
    # CHECK:STDERR:
    # CHECK:STDERR: fail_scipy_constants.py:[[@LINE+4]]:34: error: `PI_RE_2` is computed from `scipy.constants.physical_constants`, a measured value whose digits depend on the SciPy release (CODATA 2018 until SciPy 1.14, CODATA 2022 since 1.15): give the value your SciPy has with `-D r_e=VALUE` [host-library-constant]
    # CHECK:STDERR:     x[i] = m_e * x[i] + INV_MC + PI_RE_2
    # CHECK:STDERR:                                  ^~~~~~~
    # CHECK:STDERR:
    x[i] = m_e * x[i] + INV_MC + PI_RE_2
