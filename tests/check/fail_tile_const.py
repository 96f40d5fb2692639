# ARGS: --diag-kinds compile %s --phase=check --const T=abc
# `--const` takes NAME=VALUE: a number, a bool, a string, None, a tuple, or an enum member or a dtype the file names.
import cuda.tile as ct


@ct.kernel
def k(a: "float32[::1]", T: ct.Constant[int] = 16):
    ct.store(a, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))
# CHECK:STDERR: pykc: error: `--const T=abc`: `abc` is not a number, an enum member or a dtype the file names [invalid-define]
# CHECK:STDERR:
