# ARGS: --diag-kinds compile %s --phase=check -D N=1+ -D 3X=1
from numba import cuda

N = 4


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = N
# CHECK:STDERR: pykc: error: `-D N=1+`: the value must be a number, a bool, a string, None, a tuple of them, a frozen dataclass instance of them (`Cls(1, x=2)`), or what the file imports (`ct.max`, `torch.float16`) [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `-D 3X=1`: expected NAME=VALUE, e.g. `-D BLOCK=128` [invalid-define]
# CHECK:STDERR:
