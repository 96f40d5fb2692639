# ARGS: --diag-kinds compile %s --phase=check
# Specialisation constants in a signature: a constant stride contradicting the layout's
# unit stride (`::1`), one that its dimension's divisor does not divide (cuTile's
# ArrayConstraint refuses it too), a list of the wrong length.
import cuda.tile as ct


@ct.kernel
# CHECK:STDERR: fail_signature_constants.py:[[@LINE+4]]:37: error: stride_constant[1]=4 contradicts the layout's unit stride (`::1`) [invalid-type]
# CHECK:STDERR: def unit(x: "float32[:, ::1].assume(stride_constant=(10, 4))"):
# CHECK:STDERR:                                     ^~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
def unit(x: "float32[:, ::1].assume(stride_constant=(10, 4))"):
    pass


@ct.kernel
# CHECK:STDERR: fail_signature_constants.py:[[@LINE+4]]:38: error: stride_constant[0]=6 is not divisible by 4 (stride_divisible_by[0]) [invalid-type]
# CHECK:STDERR: def divisor(x: "float32[:, :].assume(stride_divisible_by=(4, 1), stride_constant=(6, None))"):
# CHECK:STDERR:                                      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
def divisor(x: "float32[:, :].assume(stride_divisible_by=(4, 1), stride_constant=(6, None))"):
    pass


@ct.kernel
# CHECK:STDERR: fail_signature_constants.py:[[@LINE+4]]:52: error: a constant extent or None: 1 entries for an array of 2 dimensions [invalid-type]
# CHECK:STDERR: def length(x: "float32[:, :].assume(shape_constant=(6,))"):
# CHECK:STDERR:                                                    ^~~~
# CHECK:STDERR:
def length(x: "float32[:, :].assume(shape_constant=(6,))"):
    pass
