# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Python's operator functions on tiles and run-time numbers type as cuTile's operator functions
# (operator.add as ct.add); ct.static_eval may apply them, and ct.maximum, to run-time values
# (cuTile's test_static_eval_allow_pure_expressions_binary_op).
import operator

import cuda.tile as ct


@ct.kernel
def operators(x: "int32[::1]", y: "float32[::1]"):
    a = ct.gather(x, 0) + 15
    b = ct.gather(x, 1) + 4
    s = ct.static_eval(operator.add(a, b))
    m = ct.static_eval(ct.maximum(a, b))
    q = operator.floordiv(a, b)
    ct.scatter(x, 2, s + m + q + operator.xor(a, b) + operator.lshift(a, 2))
    t = ct.load(y, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=operator.truediv(operator.neg(t), 2.0))
# CHECK:STDOUT: kernel operators operators__i32a1C_f32a1C void(int32[::1], float32[::1])
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   b: int32
# CHECK:STDOUT:   m: int32
# CHECK:STDOUT:   q: int32
# CHECK:STDOUT:   s: int32
# CHECK:STDOUT:   t: tile(float32, (64,))
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
