"""The kernels of tests/gpu/kernels/tile_kernels24.py (`with` over `@contextmanager` generators,
cuTile's test_contextlib_contextmanager) with the lists cuTile's test asserts, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases24.py.

`ctxmgr_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs a
kernel, `arr(a)` passes an array. Each kernel appends to `x`: x[0] counts, x[1:] the values."""
import numpy as np


# kernel, length of x, cuTile's expected list (test_contextlib_contextmanager's asserts).
APPENDS = [
    ("cm_basic", "a context manager's value (a constant), its statements around the body",
     [5, 10, 20, 40, 30, 50, 0, 0, 0, 0]),
    ("cm_nested", "nested `with`s", [9, 10, 20, 40, 50, 70, 60, 80, 30, 90]),
    ("cm_break", "`break` in a `with` in `while True:` runs the cleanup first",
     [9, 100, 0, 200, 101, 1, 201, 102, 2, 202]),
    ("cm_inside_cm", "a `with` inside a context manager, the `yield` in its body",
     [9, 10, 20, 30, 40, 50, 60, 70, 80, 90]),
    ("cm_break_nested", "`break` through a context manager holding a `with`",
     [14, 10, 20, 30, 0, 40, 50, 60, 11, 21, 31, 1, 41, 51, 61, 0, 0, 0, 0, 0]),
    ("cm_in_cleanup", "a `with` in a context manager's cleanup",
     [14, 10, 20, 30, 40, 50, 60, 70, 21, 31, 41, 51, 61, 71, 80, 0]),
    ("cm_closure", "a yielded closure: the body sees the generator's values, after the `with` its end",
     [4, 20, 10, 30, 11, 0, 0, 0]),
    ("cm_closure_break", "a yielded closure in a loop left by `break`",
     [11, 20, 10, 30, 11, 120, 110, 130, 111, 220, 210, 230, 0, 0, 0]),
    ("cm_break_order", "`break` from nested `with`s: cleanups innermost first", [5, 1, 3, 9, 4, 2, 0, 0]),
    ("cm_continue_order", "`continue` from nested `with`s", [5, 1, 3, 9, 4, 2, 0, 0]),
    ("cm_return_order", "`return` from nested `with`s in a kernel", [5, 1, 3, 9, 4, 2, 0, 0]),
    ("cm_break_outer", "`break` leaves the inner `with`s only, the outer one's cleanup at its end",
     [8, 1, 3, 5, 9, 6, 4, 7, 2, 0]),
    ("cm_dead_break", "a dead `yield` after `break` in the cleanup", [3, 1, 9, 3, 0, 0, 0, 0]),
    ("cm_dead_continue", "a dead `yield` after `continue` in the cleanup", [4, 1, 9, 10, 11, 0, 0, 0]),
    ("cm_method", "a frozen dataclass's @contextmanager method", [8, 10, 20, 21, 30, 7, 8, 8, 50]),
    ("cm_dataclass_method", "a @contextmanager method of an instance holding the array, built in the kernel",
     [5, 10, 20, 40, 30, 50, 0, 0, 0, 0]),
    ("cm_array_instance", "an instance holding an array and numbers given to methods and helpers",
     [4, 104, 108, 113, 9, 0]),
]

# The Constant parameters each kernel was compiled with (none), passed last on the GPU.
CONSTS = {k: () for k in [a[0] for a in APPENDS] + ["cm_helper_return", "cm_tile_value", "cm_for_mixed", "array_setitem"]}


def ctxmgr_cases(run, arr, rng):
    for kernel, what, want in APPENDS:
        x = np.zeros(len(want), np.int32)
        run(kernel, 1, arr(x))
        yield what, x, np.array(want, np.int32), "exact"

    for early in (False, True):
        x = np.zeros(8, np.int32)
        run("cm_helper_return", 1, arr(x) + [np.bool_(early)])
        yield f"a helper returning a yielded closure from {'inside' if early else 'after'} the `with`", x, \
            np.array([4, 20, 10, 30, 11, 0, 0, 0], np.int32), "exact"

    x = np.arange(4, dtype=np.int32)
    run("array_setitem", 1, arr(x))
    yield "`__setitem__` of an instance holding the array (cuTile's test_dataclass)", x, \
        np.array([0, 50, 2, 3], np.int32), "exact"

    x = np.zeros(20, np.int32)
    run("cm_for_mixed", 1, arr(x) + [np.int32(5)])
    yield "a run-time value yielded; continue, break, return through `with`s in `range` loops", x, \
        np.array([19, 100, 100, 200, 101, 201, 102, 102, 202, 103, 203, 6, 8, 7, 1, 10, 20, 11, 21, 2], np.int32), \
        "exact"

    x = np.zeros(8, np.int32)
    y = np.concatenate([rng.integers(-50, 50, 4).astype(np.int32), np.full(4, -1, np.int32)])
    t = y[:4].copy()
    run("cm_tile_value", 1, arr(x) + arr(y))
    u = t * 2 + 1
    yield "a run-time tile yielded, a local read in the cleanup", x, \
        np.array([3, 1, u.sum(), (t * 2).sum(), 0, 0, 0, 0], np.int32), "exact"
    yield "the yielded tile stored", y[4:], u, "exact"
