# ARGS: --diag-kinds compile %s --phase=check
# Python's operator functions in tile kernels are cuTile's operator functions of the same
# meaning (operator.add is ct.add); the others name what is there.
import operator

import cuda.tile as ct


@ct.kernel
def unary_plus(x: "int32[::1]"):
    a = ct.gather(x, 0)
    # CHECK:STDERR: fail_tile_operator_module.py:[[@LINE+4]]:22: error: `operator.pos` is not supported in tile kernels yet: tile kernels call add, sub, mul, truediv, floordiv, mod, pow, neg, and_, or_, xor, lshift, rshift, gt, ge, lt, le, eq and ne of Python's operator module [tile-unsupported]
    # CHECK:STDERR:     ct.scatter(x, 1, operator.pos(a))
    # CHECK:STDERR:                      ^~~~~~~~~~~~
    # CHECK:STDERR:
    ct.scatter(x, 1, operator.pos(a))


@ct.kernel
def device_work_in_static_eval(x: "float32[::1]"):
    t = ct.load(x, index=(0,), shape=(16,))
    # CHECK:STDERR: fail_tile_operator_module.py:[[@LINE+4]]:65: error: `exp()` cannot run inside `ct.static_eval`: its argument is evaluated at compile time, where nothing runs on the device [tile-type]
    # CHECK:STDERR:     ct.store(x, index=(0,), tile=ct.static_eval(operator.add(t, ct.exp(t))))
    # CHECK:STDERR:                                                                 ^~~~~~~~~
    # CHECK:STDERR:
    ct.store(x, index=(0,), tile=ct.static_eval(operator.add(t, ct.exp(t))))
