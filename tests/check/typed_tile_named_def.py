# ARGS: --diag-kinds compile %s --phase=check --dump-typed --kernel make.undecorated --sig=make.undecorated(int32[::1])
# A function made a kernel at run time (`ct.kernel(pyfunc)`, as cuTile's tests do) compiles
# as a tile kernel when `--kernel` (or `--sig`) names it in a file that imports cuda.tile.
import cuda.tile as ct


def make():
    def undecorated(x):
        t = (ct.bid(0), 8)
        ct.store(x, (0,), ct.arange(t[1], dtype=ct.int32))

    return ct.kernel(undecorated)
# CHECK:STDOUT: kernel make.undecorated make$002Eundecorated__i32a1C void(int32[::1])
# CHECK:STDOUT:   t: UniTuple(int32 x 2)
# CHECK:STDOUT:   x: array(int32, 1d, C)
