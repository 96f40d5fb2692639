# ARGS: --diag-kinds compile %s --phase=check
# ct.static_assert takes a compile-time condition (Constant parameters, dtypes, shapes of
# tiles, module constants) and fails the compile where it is false, with its message;
# ct.static_eval gives a compile-time value, or a run-time one its expression computes without
# running a tile function or helper (cuTile's `ct.static_eval(tup[1])`).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def false_with_message(x: "float32[::1]", TILE: ConstInt = 40):
    # CHECK:STDERR: fail_tile_static.py:[[@LINE+4]]:5: error: static assertion failed: TILE must be a multiple of 16 [static-assert]
    # CHECK:STDERR:     ct.static_assert(TILE % 16 == 0, "TILE must be a multiple of 16")
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.static_assert(TILE % 16 == 0, "TILE must be a multiple of 16")
    ct.store(x, index=(0,), tile=ct.zeros((16,), dtype=ct.float32))


@ct.kernel
def false_without_message(x: "float16[::1]"):
    # CHECK:STDERR: fail_tile_static.py:[[@LINE+4]]:5: error: static assertion failed [static-assert]
    # CHECK:STDERR:     ct.static_assert(x.dtype == ct.float32)
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.static_assert(x.dtype == ct.float32)


@ct.kernel
def runtime_condition(x: "float32[::1]", n: "int32"):
    # CHECK:STDERR: fail_tile_static.py:[[@LINE+4]]:22: error: the condition of `ct.static_assert` (here `bool`) must be a compile-time constant [not-constant]
    # CHECK:STDERR:     ct.static_assert(n > 0)
    # CHECK:STDERR:                      ^~~~~
    # CHECK:STDERR:
    ct.static_assert(n > 0)


@ct.kernel
def message_not_literal(x: "float32[::1]", TILE: ConstInt = 16):
    # CHECK:STDERR: fail_tile_static.py:[[@LINE+4]]:32: error: the message of `ct.static_assert` must be a string [tile-type]
    # CHECK:STDERR:     ct.static_assert(TILE < 0, TILE)
    # CHECK:STDERR:                                ^~~~
    # CHECK:STDERR:
    ct.static_assert(TILE < 0, TILE)


@ct.kernel
def runtime_static_eval(x: "float32[::1]", n: "int32"):
    k = ct.static_eval(n + 1)
    ct.store(x, index=(0,), tile=ct.full((16,), k, dtype=ct.float32))


@ct.kernel
def device_work_in_static_eval(x: "float32[::1]"):
    # CHECK:STDERR: fail_tile_static.py:[[@LINE+4]]:31: error: `load()` cannot run inside `ct.static_eval`: its argument is evaluated at compile time, where nothing runs on the device [tile-type]
    # CHECK:STDERR:     k = ct.static_eval(ct.sum(ct.load(x, index=(0,), shape=(16,))))
    # CHECK:STDERR:                               ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    k = ct.static_eval(ct.sum(ct.load(x, index=(0,), shape=(16,))))
    ct.store(x, index=(0,), tile=ct.full((16,), k, dtype=ct.float32))
