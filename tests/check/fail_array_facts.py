# ARGS: --diag-kinds compile %s --phase=check
# Array facts in a tile kernel's annotations (`.assume(...)`, docs/TILE.md "Array facts")
# that pykc cannot take: an unknown fact, a divisor that is not a power of two, a tuple
# of the wrong length, a fact given twice, facts on a scalar.
import cuda.tile as ct


@ct.kernel
# CHECK:STDERR: fail_array_facts.py:[[@LINE+4]]:37: error: unknown array fact `aligned` (pykc knows alignment, stride_divisible_by, shape_divisible_by, shape_constant, stride_constant) [invalid-type]
# CHECK:STDERR: def unknown(a: "float32[::1].assume(aligned=16)"):
# CHECK:STDERR:                                     ^~~~~~~
# CHECK:STDERR:
def unknown(a: "float32[::1].assume(aligned=16)"):
    pass


@ct.kernel
# CHECK:STDERR: fail_array_facts.py:[[@LINE+4]]:49: error: an alignment must be a power of two up to 2^20 [invalid-type]
# CHECK:STDERR: def not_power(a: "float32[::1].assume(alignment=12)"):
# CHECK:STDERR:                                                 ^~
# CHECK:STDERR:
def not_power(a: "float32[::1].assume(alignment=12)"):
    pass


@ct.kernel
# CHECK:STDERR: fail_array_facts.py:[[@LINE+4]]:64: error: an extent divisor: 3 numbers for an array of 2 dimensions [invalid-type]
# CHECK:STDERR: def wrong_length(a: "float32[:, ::1].assume(shape_divisible_by=(16, 16, 16))"):
# CHECK:STDERR:                                                                ^~~~~~~~~~~~
# CHECK:STDERR:
def wrong_length(a: "float32[:, ::1].assume(shape_divisible_by=(16, 16, 16))"):
    pass


@ct.kernel
# CHECK:STDERR: fail_array_facts.py:[[@LINE+4]]:49: error: `alignment=` given twice [invalid-type]
# CHECK:STDERR: def twice(a: "float32[::1].assume(alignment=16, alignment=32)"):
# CHECK:STDERR:                                                 ^~~~~~~~~
# CHECK:STDERR:
def twice(a: "float32[::1].assume(alignment=16, alignment=32)"):
    pass


@ct.kernel
# CHECK:STDERR: fail_array_facts.py:[[@LINE+4]]:26: error: `.assume(...)` follows an array type, once [invalid-type]
# CHECK:STDERR: def on_scalar(a: "float32.assume(alignment=16)"):
# CHECK:STDERR:                          ^~~~~~~
# CHECK:STDERR:
def on_scalar(a: "float32.assume(alignment=16)"):
    pass
