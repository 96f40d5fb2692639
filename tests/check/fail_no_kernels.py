# ARGS: --diag-kinds compile %s --no-cache
"""A file with no kernel is an error, not a manifest with `"kernels": []` (issue 21: seven
real files exited 0 that way); a decorator pykc does not compile is named first. numba's
CPU functions (`@numba.njit`) alone are no kernels either: they become device functions
only when a kernel calls them."""
import numba


@numba.njit
def host_only(x):
    return x + 1


# CHECK:STDERR: fail_no_kernels.py:[[@LINE+4]]:2: warning: decorator ignored: pykc only knows `cuda.jit` [invalid-decorator]
# CHECK:STDERR: @numba.vectorize(["float64(float64)"])
# CHECK:STDERR:  ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@numba.vectorize(["float64(float64)"])
def ufunc(x):
    return x + 1
# CHECK:STDERR: pykc: error: no kernels in `fail_no_kernels.py`: it defines 1 device function (`host_only`...) and no kernel; pykc compiles a device function where a kernel calls it: compile the file whose kernels import it (`from fail_no_kernels import host_only`, with `--python-path` for its folder)
