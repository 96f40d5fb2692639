# ARGS: --diag-kinds compile %s --phase=check
# `with` over @contextmanager generators in tile kernels (docs/TILE.md "Context managers"):
# what is refused, with cuTile's words where its tests match them.
# Parts adapted from cutile-python's test/test_contextlib_contextmanager.py (commit 9c3ee3c,
# Apache-2.0, (c) NVIDIA; verbatim in tests/realworld_tile/corpus/NVIDIA__cutile-python/).
from contextlib import contextmanager
import contextlib
import cuda.tile as ct


def append(x, val):
    i = ct.gather(x, 0) + 1
    ct.scatter(x, 0, i)
    ct.scatter(x, i, val)


@contextmanager
def two_yields(x):
    append(x, 1)
    yield
    append(x, 2)
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:5: error: Generator-based context manager must have one `yield` statement (another `yield` found on line [[@LINE-2]]) [tile-type]
    # CHECK:STDERR:     yield
    # CHECK:STDERR:     ^~~~~
    # CHECK:STDERR:
    yield
    append(x, 3)


@contextmanager
# CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:1: error: Expected a generator function, but no reachable `yield` statement has been found in `no_yield` [tile-type]
# CHECK:STDERR: def no_yield(x):
# CHECK:STDERR: ^~~~~~~~~~~~~~~~
# CHECK:STDERR:
def no_yield(x):
    append(x, 1)


@contextlib.contextmanager
def yield_in_if(x, flag):
    append(x, 1)
    if flag:
        # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:9: error: `yield` statement of a generator-based context manager must be placed outside of loops and conditional statements [tile-type]
        # CHECK:STDERR:         yield
        # CHECK:STDERR:         ^~~~~
        # CHECK:STDERR:
        yield
    append(x, 2)


@contextmanager
# CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:1: error: Expected a generator function, but no reachable `yield` statement has been found in `only_dead_yield` [tile-type]
# CHECK:STDERR: def only_dead_yield(x):
# CHECK:STDERR: ^~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
def only_dead_yield(x):
    append(x, 1)
    while True:
        append(x, 2)
        break
        yield


@contextmanager
def with_return():
    if ct.bid(0) == 1:
        # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:9: error: Returning from a generator-based context manager is not supported [tile-type]
        # CHECK:STDERR:         return
        # CHECK:STDERR:         ^~~~~~
        # CHECK:STDERR:
        return
    yield


@contextmanager
def foo(x, start_val, end_val):
    append(x, start_val)
    yield start_val
    append(x, end_val)


def plain(x):
    append(x, 1)


def gen_plain(x):
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:5: error: `yield` outside a `@contextmanager` generator entered by `with` is not supported in tile kernels yet [tile-unsupported]
    # CHECK:STDERR:     yield 1
    # CHECK:STDERR:     ^~~~~~~
    # CHECK:STDERR:
    yield 1


@ct.kernel
def k_two(x: "int32[::1]"):
    with two_yields(x):
        append(x, 99)


@ct.kernel
def k_none(x: "int32[::1]"):
    with no_yield(x):
        append(x, 99)


@ct.kernel
def k_if(x: "int32[::1]"):
    with yield_in_if(x, True):
        append(x, 99)


@ct.kernel
def k_dead(x: "int32[::1]"):
    with only_dead_yield(x):
        append(x, 99)


@ct.kernel
def k_return(x: "int32[::1]"):
    with with_return():
        pass


@ct.kernel
def k_value():
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:10: error: `foo(...)` is a generator-based context manager (`@contextmanager`): tile kernels use it only in `with foo(...):`, not as a value [tile-type]
    # CHECK:STDERR:     cm = foo(None, 10, end_val=20)
    # CHECK:STDERR:          ^~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    cm = foo(None, 10, end_val=20)
    cm + 1


@ct.kernel
def k_plain(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:10: error: `with` takes a call of a `@contextmanager` generator function; `plain` is not one [tile-type]
    # CHECK:STDERR:     with plain(x):
    # CHECK:STDERR:          ^~~~~~~~
    # CHECK:STDERR:
    with plain(x):
        pass
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:10: error: `with` takes a call of a `@contextmanager` generator function, found `array(int32, 1d, C)` [tile-type]
    # CHECK:STDERR:     with x:
    # CHECK:STDERR:          ^
    # CHECK:STDERR:
    with x:
        pass


@ct.kernel
def k_forms(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:5: error: a `with` statement entering several context managers is not supported in tile kernels yet: nest one `with` per context manager [tile-unsupported]
    # CHECK:STDERR:     with foo(x, 1, 2), foo(x, 3, 4):
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    with foo(x, 1, 2), foo(x, 3, 4):
        pass
    # CHECK:STDERR: fail_tile_with.py:[[@LINE+4]]:26: error: `with ... as` this target is not supported in tile kernels yet: bind the context manager's value to one name [tile-unsupported]
    # CHECK:STDERR:     with foo(x, 1, 2) as (a, b):
    # CHECK:STDERR:                          ^~~~~~
    # CHECK:STDERR:
    with foo(x, 1, 2) as (a, b):
        pass


@ct.kernel
def k_gen_plain(x: "int32[::1]"):
    gen_plain(x)
