# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Compile-time folding as cuTile's test_constfold and test_loose_typing expect: strictly
# typed constants (`ct.int16(2)`: arithmetic on it stays int16 and wraps as NumPy does,
# and it promotes tiles as a scalar of its dtype would, where a Python number adapts);
# `is` on True and False; strings (`+`, `*`, `str(123)`); slices of constant tuples; a
# `while True:` whose body always ends in `break` (after it, what every break knew); and a
# kernel without run-time parameters, which needs no signature.
import cuda.tile as ct


@ct.kernel
def strict(x: "int32[::1]", n: ct.Constant[int] = 5):
    t = n + ct.int16(2)
    ct.static_assert(t == 7)
    b = ct.arange(4, dtype=ct.int8) + t
    ct.static_assert(b.dtype == ct.int16)
    ct.static_assert(ct.uint8(150) + ct.uint8(110) == 4)
    ct.static_assert(ct.int8(300) == 44 and ct.uint8(-1) == 255)
    ct.static_assert(-ct.uint32(3) == 0xfffffffd and ~ct.uint32(3) == 0xfffffffc)
    ct.static_assert(ct.int32(3_000_000_000) == -1294967296)
    loose = ct.full((4,), 1, ct.float16) + 2.0
    ct.static_assert(loose.dtype == ct.float16)
    wide = ct.full((4,), 1, ct.float16) + ct.float32(2.0)
    ct.static_assert(wide.dtype == ct.float32)
    again = ct.full((4,), 1, ct.float16) + float(ct.float32(2.0))
    ct.static_assert(again.dtype == ct.float16)
    ct.store(x, (0,), b.astype(ct.int32))


@ct.kernel
def folds():
    a = True
    ct.static_assert(a is True and a is not False and not (a is 1))  # noqa: F632
    c = "foo" + "bar"
    ct.static_assert(c == "foobar" and "ab" * 2 == "abab")
    ct.static_assert(str(123) == "123" and str(c) == "foobar")
    t = (1, 1, 2, 2)
    s1, s2 = t[::2]
    ct.static_assert(s1 == 1 and s2 == 2)
    ct.static_assert(t[1:3] == (1, 2) and t[::-1] == (2, 2, 1, 1) and t[5:] == ())
    while True:
        if False:
            sz = 1
            break
        else:
            sz = 2
            break
    ct.full((sz, sz), 1.0, dtype=ct.float32)
# CHECK:STDOUT: kernel strict strict__i32a1C__Kn_5 void(int32[::1], n=5)
# CHECK:STDOUT:   again: tile(float16, (4,))
# CHECK:STDOUT:   b: tile(int16, (4,))
# CHECK:STDOUT:   loose: tile(float16, (4,))
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   t: int16
# CHECK:STDOUT:   wide: tile(float32, (4,))
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: kernel folds folds__v void()
# CHECK:STDOUT:   a: bool
# CHECK:STDOUT:   s1: int64
# CHECK:STDOUT:   s2: int64
# CHECK:STDOUT:   sz: int32
# CHECK:STDOUT:   t: UniTuple(int64 x 4)
