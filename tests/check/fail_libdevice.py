# ARGS: --diag-kinds compile %s --phase=check
# cuda.libdevice: numba's stub signatures (output pointers are results, not
# arguments), numbers only, unknown names.
from numba import cuda
from numba.cuda import libdevice


@cuda.jit("void(float32[::1], complex64[::1])")
def k(f, z):
    # CHECK:STDERR: fail_libdevice.py:[[@LINE+4]]:5: error: `libdevice.frexp` takes 1 argument, found 2 [wrong-arg-count]
    # CHECK:STDERR:     libdevice.frexp(f[0], f[1])
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    libdevice.frexp(f[0], f[1])
    # CHECK:STDERR: fail_libdevice.py:[[@LINE+4]]:5: error: `cuda.libdevice.sad` takes 3 arguments, found 2 [wrong-arg-count]
    # CHECK:STDERR:     cuda.libdevice.sad(1, 2)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.libdevice.sad(1, 2)
    # CHECK:STDERR: fail_libdevice.py:[[@LINE+4]]:20: error: `libdevice.sinf` takes numbers, found `complex64` [invalid-call]
    # CHECK:STDERR:     libdevice.sinf(z[0])
    # CHECK:STDERR:                    ^~~~
    # CHECK:STDERR:
    libdevice.sinf(z[0])
    # CHECK:STDERR: fail_libdevice.py:[[@LINE+4]]:21: error: `libdevice.fmaxf` takes numbers, found `array(float32, 1d, C)` [invalid-call]
    # CHECK:STDERR:     libdevice.fmaxf(f, 1.0)
    # CHECK:STDERR:                     ^
    # CHECK:STDERR:
    libdevice.fmaxf(f, 1.0)
    # CHECK:STDERR: fail_libdevice.py:[[@LINE+4]]:5: error: `libdevice` has no attribute `nan` [unknown-attribute]
    # CHECK:STDERR:     libdevice.nan(1)
    # CHECK:STDERR:     ^~~~~~~~~~~~~
    # CHECK:STDERR:
    libdevice.nan(1)
    # CHECK:STDERR: fail_libdevice.py:[[@LINE+4]]:5: error: pass the arguments of `cuda.libdevice.sincos` by position [invalid-call]
    # CHECK:STDERR:     cuda.libdevice.sincos(x=f[0])
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cuda.libdevice.sincos(x=f[0])
