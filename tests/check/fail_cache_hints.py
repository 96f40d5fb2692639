# ARGS: --diag-kinds compile %s --phase=check
# cuda.ld<op>/st<op>: numba-cuda's cache_hints.py checks (arrays or pointers,
# an integer index for 1-d, a tuple of ndim integers otherwise, integer or
# float elements, a number to store).
from numba import cuda


@cuda.jit("void(float32[:, ::1], boolean[::1], complex64[::1], int32[::1])")
def k(m, b, z, a):
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:18: error: `cuda.ldca` on a 2-d array takes a tuple of 2 indices [invalid-index]
    # CHECK:STDERR:     cuda.ldca(m, 0)
    # CHECK:STDERR:                  ^
    # CHECK:STDERR:
    cuda.ldca(m, 0)
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:18: error: too many indices for `array(float32, 2d, C)`: found 3 [invalid-index]
    # CHECK:STDERR:     cuda.ldcg(m, (0, 1, 2))
    # CHECK:STDERR:                  ^~~~~~~~~
    # CHECK:STDERR:
    cuda.ldcg(m, (0, 1, 2))
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:18: error: `cuda.ldcs` takes an integer index, found `float64` [invalid-index]
    # CHECK:STDERR:     cuda.ldcs(a, 1.5)
    # CHECK:STDERR:                  ^~~
    # CHECK:STDERR:
    cuda.ldcs(a, 1.5)
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:15: error: `cuda.ldlu` needs integer or float elements, found `bool` [invalid-call]
    # CHECK:STDERR:     cuda.ldlu(b, 0)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    cuda.ldlu(b, 0)
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:15: error: `cuda.stcs` needs integer or float elements, found `complex64` [invalid-call]
    # CHECK:STDERR:     cuda.stcs(z, 0, 1)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    cuda.stcs(z, 0, 1)
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:21: error: `cuda.stwb` stores a number, found `complex64` [invalid-call]
    # CHECK:STDERR:     cuda.stwb(a, 0, z[0])
    # CHECK:STDERR:                     ^~~~
    # CHECK:STDERR:
    cuda.stwb(a, 0, z[0])
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:5: error: `cuda.stwt` takes 3 arguments (array, index, value), found 2 [wrong-arg-count]
    # CHECK:STDERR:     cuda.stwt(a, 0)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.stwt(a, 0)
    # CHECK:STDERR: fail_cache_hints.py:[[@LINE+4]]:15: error: `cuda.ldcv` operates on arrays or pointers, found `int64` [invalid-call]
    # CHECK:STDERR:     cuda.ldcv(3, 0)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    cuda.ldcv(3, 0)
    cuda.ldcv(a, 0)
    cuda.stcg(m, (0, 0), cuda.ldcv(a, -1))
