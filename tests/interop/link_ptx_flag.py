# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t --link %d/inputs/helpers.ptx
# A PTX file given on the command line (`%d` is this folder), defining a
# function no `link=` names.
from numba import cuda

plus_one = cuda.declare_device("plus_one", "int32(int32)")


@cuda.jit("void(int32[::1])")
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = plus_one(x[i])
