# ARGS: --diag-kinds compile %s --phase=check
# Array.slice(axis, start, stop) (cuTile's view of one axis' range): the axis a constant
# inside the array's dimensions, start and stop integers, all three given.
import cuda.tile as ct


@ct.kernel
def axis_out_of_range(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:17: error: axis 1 of a 1-d array [index-out-of-range]
    # CHECK:STDERR:     v = x.slice(1, 0, 4)
    # CHECK:STDERR:                 ^
    # CHECK:STDERR:
    v = x.slice(1, 0, 4)
    ct.store(x, index=(0,), tile=ct.load(v, index=(0,), shape=(4,)))


@ct.kernel
def axis_not_constant(x: "float32[:, ::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:17: error: the `axis` of `slice` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     v = x.slice(n, 0, 4)
    # CHECK:STDERR:                 ^
    # CHECK:STDERR:
    v = x.slice(n, 0, 4)
    ct.store(x, index=(0, 0), tile=ct.load(v, index=(0, 0), shape=(4, 4)))


@ct.kernel
def float_start(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:31: error: the `start` of `slice` must be an integer, found `1.5` [tile-type]
    # CHECK:STDERR:     v = x.slice(axis=0, start=1.5, stop=4)
    # CHECK:STDERR:                               ^~~
    # CHECK:STDERR:
    v = x.slice(axis=0, start=1.5, stop=4)
    ct.store(x, index=(0,), tile=ct.load(v, index=(0,), shape=(4,)))


@ct.kernel
def missing_stop(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:9: error: `slice` needs its `stop` argument [invalid-call]
    # CHECK:STDERR:     v = x.slice(0, 1)
    # CHECK:STDERR:         ^~~~~~~~~~~~~
    # CHECK:STDERR:
    v = x.slice(0, 1)
    ct.store(x, index=(0,), tile=ct.load(v, index=(0,), shape=(4,)))


@ct.kernel
def unknown_keyword(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:25: error: `slice` has no parameter `begin` [invalid-call]
    # CHECK:STDERR:     v = x.slice(axis=0, begin=1, stop=4)
    # CHECK:STDERR:                         ^~~~~~~
    # CHECK:STDERR:
    v = x.slice(axis=0, begin=1, stop=4)
    ct.store(x, index=(0,), tile=ct.load(v, index=(0,), shape=(4,)))


@ct.kernel
def tile_has_no_slice(x: "float32[::1]"):
    t = ct.load(x, index=(0,), shape=(4,))
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:34: error: `tile(float32, (4,))` has no attribute `slice` [unknown-attribute]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=t.slice(0, 0, 2))
    # CHECK:STDERR:                                  ^~~~~~~
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=t.slice(0, 0, 2))


@ct.kernel
def view_changes_facts(x: "float32[::1].assume(alignment=16, shape_divisible_by=16)", n: "int32"):
    v = x
    if n > 0:
        # A view has neither fact: a variable keeps one type.
        v = x.slice(0, 4, 20)
    # CHECK:STDERR: fail_tile_slice.py:[[@LINE+4]]:42: error: `v` holds `array(float32, 1d, C).assume(alignment=16, shape_divisible_by=(16,))` or `array(float32, 1d, C)` here, depending on the path taken (`array(float32, 1d, C)` from line [[@LINE-1]]): such a variable keeps one type in a tile kernel (a view of an array keeps neither its alignment nor the sliced extent's divisor: give the view a name of its own) [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.load(v, index=(0,), shape=(4,)))
    # CHECK:STDERR:                                          ^
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.load(v, index=(0,), shape=(4,)))
