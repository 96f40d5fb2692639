# ARGS: --diag-kinds compile %s --phase=check --const 1copy.T=64
# `--const KERNEL.NAME=VALUE` needs two identifiers.
import cuda.tile as ct


@ct.kernel
def copy(a: "float32[::1]", T: ct.Constant[int] = 16):
    ct.store(a, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))
# CHECK:STDERR: pykc: error: `--const 1copy.T=64`: expected NAME=VALUE, KERNEL.NAME=VALUE or NAME[i]=VALUE, e.g. `--const BLOCK=128` [invalid-define]
# CHECK:STDERR:
