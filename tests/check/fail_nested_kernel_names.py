# ARGS: --diag-kinds compile %s --phase=check --sig make.missing(float32[::1]) --sig Holder.inner(float32[::1]) --sig Holder(float32[::1]) -D op=np.not_a_thing
"""Qualified kernel names that name nothing say which part was not found; `-D NAME=PATH`
must name something the file imports that pykc knows."""
import numpy as np
from numba import cuda


def make(op):
    @cuda.jit
    def k(x):
        x[0] = op(x[2])
    return k


class Holder:
    pass
# CHECK:STDERR: pykc: error: `-D op=np.not_a_thing`: `np.not_a_thing` is not a number, a function the file defines, nor something pykc knows that the file imports [invalid-define]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `make.missing` names no function of fail_nested_kernel_names.py: no function or class `missing` at `make` [unknown-kernel]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `Holder.inner` names no function of fail_nested_kernel_names.py: no function or class `inner` at class `Holder` [unknown-kernel]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: `--sig 'Holder(float32[::1])'` names `Holder`, which is not a `cuda.jit` function of fail_nested_kernel_names.py [unknown-kernel]
# CHECK:STDERR:
