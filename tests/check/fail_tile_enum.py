# ARGS: --diag-kinds compile %s --phase=check
# Module enum classes in tile kernels: members are compile-time constants; `C(value)` needs a
# compile-time value that a member has; plain Enum members have no order.
from enum import Enum

import cuda.tile as ct


class Color(Enum):
    RED = 0
    GREEN = 1


@ct.kernel
def from_runtime(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_enum.py:[[@LINE+4]]:15: error: the value of an enum member (`Color(...)`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     c = Color(ct.bid(0))
    # CHECK:STDERR:               ^~~~~~~~~
    # CHECK:STDERR:
    c = Color(ct.bid(0))
    ct.scatter(x, 0, 1)


@ct.kernel
def no_such_value(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_enum.py:[[@LINE+4]]:15: error: 5 is not a valid `Color` [tile-type]
    # CHECK:STDERR:     c = Color(5)
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    c = Color(5)
    ct.scatter(x, 0, 1)


@ct.kernel
def no_such_member(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_enum.py:[[@LINE+4]]:8: error: `Color` has no attribute `BLUE` [unknown-attribute]
    # CHECK:STDERR:     if Color.BLUE == Color.RED:
    # CHECK:STDERR:        ^~~~~~~~~~
    # CHECK:STDERR:
    if Color.BLUE == Color.RED:
        ct.scatter(x, 0, 1)


@ct.kernel
def ordered(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_enum.py:[[@LINE+4]]:8: error: unsupported operand types for `<`: `Color.RED` and `Color.GREEN` [mismatched-operand-types]
    # CHECK:STDERR:     if Color.RED < Color.GREEN:
    # CHECK:STDERR:        ^~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    if Color.RED < Color.GREEN:
        ct.scatter(x, 0, 1)


@ct.kernel
def as_number(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_enum.py:[[@LINE+4]]:22: error: unsupported operand types for `+`: `Color.RED` and `1` [mismatched-operand-types]
    # CHECK:STDERR:     ct.scatter(x, 0, Color.RED + 1)
    # CHECK:STDERR:                      ^~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, Color.RED + 1)
