# ARGS: --diag-kinds compile %s --phase=check --const T=abc
# `--const` takes NAME=VALUE with a number.
import cuda.tile as ct


@ct.kernel
def k(a: "float32[::1]", T: ct.Constant[int] = 16):
    ct.store(a, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))
# CHECK:STDERR: pykc: error: `--const T=abc`: the value must be a number, a bool, a string, None or a tuple of them [invalid-define]
# CHECK:STDERR:
