# ARGS: --diag-kinds compile %s --phase=check
# What stays run-time: a tuple element or a name the branches disagree on, one a loop may
# rebind (or leave as it was, after no trip), and `ct.ensure_constant` of a run-time value.
import cuda.tile as ct


@ct.kernel
def branches_differ(x: "int32[::1]"):
    if ct.bid(0) == 0:
        pair = (ct.bid(1), 4)
    else:
        pair = (ct.bid(1), 8)
    # CHECK:STDERR: fail_tile_known_tuple.py:[[@LINE+4]]:33: error: a tile shape must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.store(x, (0,), ct.arange(pair[1], dtype=x.dtype))
    # CHECK:STDERR:                                 ^~~~~~~
    # CHECK:STDERR:
    ct.store(x, (0,), ct.arange(pair[1], dtype=x.dtype))


@ct.kernel
def loop_rebinds(x: "int32[::1]"):
    pair = (ct.bid(1), 4)
    for i in range(ct.bid(0)):
        # CHECK:STDERR: fail_tile_known_tuple.py:[[@LINE+4]]:37: error: a tile shape must be a compile-time constant [not-constant]
        # CHECK:STDERR:         ct.store(x, (i,), ct.arange(pair[1], dtype=x.dtype))
        # CHECK:STDERR:                                     ^~~~~~~
        # CHECK:STDERR:
        ct.store(x, (i,), ct.arange(pair[1], dtype=x.dtype))
        pair = (ct.bid(1), 8)


@ct.kernel
def names_differ(x: "int32[::1]"):
    if ct.bid(0) == 0:
        w = 4
    else:
        w = 8
    # CHECK:STDERR: fail_tile_known_tuple.py:[[@LINE+4]]:33: error: a tile shape must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.store(x, (0,), ct.arange(w, dtype=x.dtype))
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    ct.store(x, (0,), ct.arange(w, dtype=x.dtype))


@ct.kernel
def loop_may_not_run(x: "int32[::1]"):
    w = 4
    for i in range(ct.bid(0)):
        w = 8
    # CHECK:STDERR: fail_tile_known_tuple.py:[[@LINE+4]]:33: error: a tile shape must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.store(x, (0,), ct.arange(w, dtype=x.dtype))
    # CHECK:STDERR:                                 ^
    # CHECK:STDERR:
    ct.store(x, (0,), ct.arange(w, dtype=x.dtype))


@ct.kernel
def ensure(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_known_tuple.py:[[@LINE+4]]:28: error: the argument of `ct.ensure_constant` (here `int32`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     n = ct.ensure_constant(ct.bid(0))
    # CHECK:STDERR:                            ^~~~~~~~~
    # CHECK:STDERR:
    n = ct.ensure_constant(ct.bid(0))
