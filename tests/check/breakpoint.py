# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""`breakpoint()` in kernels compiles (issue 21: numba-cuda's examples/debugging/hello.py):
PTX `brkpt` in kernels built with debug=True (cuda-gdb stops there), nothing elsewhere
(tests/compile/breakpoint.py checks the PTX)."""
from numba import cuda


# CHECK:STDERR: breakpoint.py:[[@LINE+4]]:43: warning: `opt=False` applies to the whole file in pykc: pass `-O0` to compile without optimisation [unsupported-option]
# CHECK:STDERR: @cuda.jit("void(int64[::1])", debug=True, opt=False)
# CHECK:STDERR:                                           ^~~~~~~~~
# CHECK:STDERR:
@cuda.jit("void(int64[::1])", debug=True, opt=False)
def hello(x):
    i = cuda.grid(1)
    breakpoint()
    x[i] = i


@cuda.jit("void(int64[::1])")
def plain(x):
    breakpoint()
    x[0] = 1
# CHECK:STDOUT: kernel hello hello__i64a1C void(int64[::1])
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   x: array(int64, 1d, C)
# CHECK:STDOUT: kernel plain plain__i64a1C void(int64[::1])
# CHECK:STDOUT:   x: array(int64, 1d, C)
