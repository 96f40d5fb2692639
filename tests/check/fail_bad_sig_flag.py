# ARGS: --diag-kinds compile %s --phase=check --sig nothere(float32) --sig k(float32[::1]) --sig k(int99)
from numba import cuda


@cuda.jit
def k(x):
    x[0] = 1
# CHECK:STDERR: pykc: error: `--sig 'nothere(float32)'` names `nothere`, which is not a `cuda.jit` function of fail_bad_sig_flag.py [unknown-kernel]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: invalid `--sig 'k(int99)'`: unknown type `int99` in signature [invalid-signature]
# CHECK:STDERR:
