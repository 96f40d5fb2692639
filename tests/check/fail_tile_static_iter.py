# ARGS: --diag-kinds compile %s --phase=check
# Diagnostics of compile-time loops (`ct.static_iter`) and tuple comprehensions.
import cuda.tile as ct


@ct.kernel
def exits(x: "int32[::1]", n: "int32"):
    for i in ct.static_iter(range(3)):
        if i == 1:
            # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:13: error: `continue` in a compile-time loop (`ct.static_iter`): its iterations are unrolled [unsupported-construct]
            # CHECK:STDERR:             continue
            # CHECK:STDERR:             ^~~~~~~~
            # CHECK:STDERR:
            continue
        for j in range(n):
            if j == 2:
                break
        ct.scatter(x, i, 1)
    for i in ct.static_iter(range(3)):
        if i == 1:
            # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:13: error: `break` in a compile-time loop (`ct.static_iter`): its iterations are unrolled [unsupported-construct]
            # CHECK:STDERR:             break
            # CHECK:STDERR:             ^~~~~
            # CHECK:STDERR:
            break
    for i in ct.static_iter(range(3)):
        if i == 1:
            # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:13: error: `return` in a compile-time loop (`ct.static_iter`): its iterations are unrolled [unsupported-construct]
            # CHECK:STDERR:             return
            # CHECK:STDERR:             ^~~~~~
            # CHECK:STDERR:
            return


@ct.kernel
def iterables(x: "int32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:35: error: a bound of `range` in a compile-time loop must be a compile-time constant [not-constant]
    # CHECK:STDERR:     for i in ct.static_iter(range(n)):
    # CHECK:STDERR:                                   ^
    # CHECK:STDERR:
    for i in ct.static_iter(range(n)):
        ct.scatter(x, i, 1)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:29: error: a compile-time loop unrolls at most 1000 iterations: use `range` for a run-time loop [tile-type]
    # CHECK:STDERR:     for i in ct.static_iter(range(1000000)):
    # CHECK:STDERR:                             ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    for i in ct.static_iter(range(1000000)):
        ct.scatter(x, i, 1)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:29: error: a compile-time loop (`ct.static_iter`) iterates over a tuple, a list of constants, `range(...)` with constant bounds, or `enumerate`/`zip` of them; found `42` [tile-type]
    # CHECK:STDERR:     for i in ct.static_iter(42):
    # CHECK:STDERR:                             ^~
    # CHECK:STDERR:
    for i in ct.static_iter(42):
        ct.scatter(x, i, 1)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:33: error: a list in a compile-time loop holds constants, found `int32`: iterate over a tuple for run-time values [tile-type]
    # CHECK:STDERR:     for i in ct.static_iter([1, n]):
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    for i in ct.static_iter([1, n]):
        ct.scatter(x, i, 1)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:9: error: binding one name to an item of `enumerate` or `zip` is not supported in tile kernels yet: unpack it (`for i, x in ...`) [tile-unsupported]
    # CHECK:STDERR:     for pair in ct.static_iter(enumerate((ct.bid(0), n))):
    # CHECK:STDERR:         ^~~~
    # CHECK:STDERR:
    for pair in ct.static_iter(enumerate((ct.bid(0), n))):
        ct.scatter(x, 0, 1)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:9: error: cannot unpack this item of the compile-time loop into 2 names [tile-type]
    # CHECK:STDERR:     for a, b in ct.static_iter(((1, 2), (3,))):
    # CHECK:STDERR:         ^~~~
    # CHECK:STDERR:
    for a, b in ct.static_iter(((1, 2), (3,))):
        ct.scatter(x, a, b)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:9: error: `ct.static_iter(...)` is allowed only as the iterable of a `for` loop or of a tuple comprehension, called by its name [unsupported-construct]
    # CHECK:STDERR:     t = ct.static_iter(range(3))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    t = ct.static_iter(range(3))


@ct.kernel
def comprehensions(x: "int32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:54: error: the condition of a tuple comprehension must be a compile-time constant [not-constant]
    # CHECK:STDERR:     t = tuple(i for i in ct.static_iter(range(3)) if i < n)
    # CHECK:STDERR:                                                      ^~~~~
    # CHECK:STDERR:
    t = tuple(i for i in ct.static_iter(range(3)) if i < n)
    # CHECK:STDERR: fail_tile_static_iter.py:[[@LINE+4]]:15: error: a tuple comprehension gives numbers, tiles and tuples of them, found `array(int32, 1d, C)` [tile-type]
    # CHECK:STDERR:     u = tuple(x for i in ct.static_iter(range(3)))
    # CHECK:STDERR:               ^
    # CHECK:STDERR:
    u = tuple(x for i in ct.static_iter(range(3)))
