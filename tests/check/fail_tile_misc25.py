# ARGS: --diag-kinds compile %s --phase=check
# Module dicts indexed in tile kernels, methods returned by helpers and `@static_def`
# `__init__`s (docs/TILE.md): what is refused.
from dataclasses import dataclass
from enum import Enum

import numpy as np
import cuda.tile as ct
from cuda.tile._execution import static_def


class Op(Enum):
    ADD = 1
    MAX = 2


_OP_TO_FUNC = {Op.ADD: ct.atomic_add}
_HOST_KEYS = {np.random.rand(): 1}
LOG = []
# CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:20: error: `LOG` is not a compile-time constant: kernels can use module constants (numbers, bools, tuples), imports and decorated functions [host-global]
# CHECK:STDERR: _HOST_VALUES = {1: LOG}
# CHECK:STDERR:                    ^~~
# CHECK:STDERR:
_HOST_VALUES = {1: LOG}


def raw_add(x):
    return x.get_raw_memory().atomic_add_offset


@dataclass(frozen=True)
class Loops:
    x: int

    @static_def
    def __init__(self, n):
        # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:9: error: this statement in `Loops.__init__` (a `@static_def`) is not supported in tile kernels yet: write its fields with `object.__setattr__(self, "field", value)` [tile-unsupported]
        # CHECK:STDERR:         for i in range(n):
        # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~
        # CHECK:STDERR:
        for i in range(n):
            pass
        object.__setattr__(self, "x", n)


@dataclass(frozen=True)
class Half:
    x: int
    y: int

    @static_def
    def __init__(self, n):
        object.__setattr__(self, "x", n)


@dataclass(frozen=True)
class Calls:
    x: int

    @static_def
    def __call__(self, z):
        return self.x.bit_length() + z


@ct.kernel
def static_def_call_runtime(x: "int32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:22: error: an argument of `Calls.__call__` (a `@static_def`) (here `int32`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.scatter(x, 0, Calls(1)(n))
    # CHECK:STDERR:                      ^~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, Calls(1)(n))


@ct.kernel
def static_def_call_unknown_field(x: "int32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:22: error: field `x` of the object `Calls.__call__` (a `@static_def`) runs on must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.scatter(x, 0, Calls(n)(1))
    # CHECK:STDERR:                      ^~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, Calls(n)(1))


@ct.kernel
def static_def_call_host_code(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:22: error: evaluating `Calls.__call__` (a `@static_def`) at compile time is not supported in tile kernels yet: pykc runs numbers, tuples and lists, `self.field`, assignments, if/for/while and returns [tile-unsupported]
    # CHECK:STDERR:     ct.scatter(x, 0, Calls(1)(2))
    # CHECK:STDERR:                      ^~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 0, Calls(1)(2))


@ct.kernel
def missing_key(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:36: error: key Op.MAX not found in module dict `_OP_TO_FUNC` [tile-type]
    # CHECK:STDERR:     f = ct.static_eval(_OP_TO_FUNC[Op.MAX])
    # CHECK:STDERR:                                    ^~~~~~
    # CHECK:STDERR:
    f = ct.static_eval(_OP_TO_FUNC[Op.MAX])


@ct.kernel
def runtime_key(x: "int32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:21: error: the key of module dict `_OP_TO_FUNC` (here `int32`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     f = _OP_TO_FUNC[n]
    # CHECK:STDERR:                     ^
    # CHECK:STDERR:
    f = _OP_TO_FUNC[n]


@ct.kernel
def host_keys(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:9: error: indexing module dict `_HOST_KEYS`, whose keys are not all compile-time constants, is not supported in tile kernels yet [tile-unsupported]
    # CHECK:STDERR:     v = _HOST_KEYS[1]
    # CHECK:STDERR:         ^~~~~~~~~~~~~
    # CHECK:STDERR:
    v = _HOST_KEYS[1]


@ct.kernel
def host_values(x: "int32[::1]"):
    v = _HOST_VALUES[1]


@ct.kernel
def computed_method(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:5: error: `raw_add` returning the method `atomic_add_offset` of a value it computes is not supported in tile kernels yet: return a method of one of its parameters (`return tv.atomic_store_add`), or call the method in the helper [tile-unsupported]
    # CHECK:STDERR:     raw_add(x)(0, 1)
    # CHECK:STDERR:     ^~~~~~~~~~
    # CHECK:STDERR:
    raw_add(x)(0, 1)


@ct.kernel
def static_def_loop(x: "int32[::1]"):
    d = Loops(3)


@ct.kernel
def static_def_runtime(x: "int32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:9: error: the argument `n` of `Half.__init__` (a `@static_def`) (here `int32`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     d = Half(n)
    # CHECK:STDERR:         ^~~~~~~
    # CHECK:STDERR:
    d = Half(n)


@ct.kernel
def static_def_unset(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_misc25.py:[[@LINE+4]]:9: error: `Half.__init__` (a `@static_def`) leaves field `y` unset [tile-type]
    # CHECK:STDERR:     d = Half(1)
    # CHECK:STDERR:         ^~~~~~~
    # CHECK:STDERR:
    d = Half(1)
