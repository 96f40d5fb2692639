# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# `with` over @contextmanager generators (docs/TILE.md "Context managers"): the generator is a
# helper instance typed once per argument kinds, its `yield` the call's value (a constant stays
# one), its statements after the `yield` the cleanup; a yielded closure's run-time captures are
# the caller's variables (`$<call>.a`), copied at the yield and again at the generator's end.
# Parts adapted from cutile-python's test/test_contextlib_contextmanager.py (commit 9c3ee3c,
# Apache-2.0, (c) NVIDIA; verbatim in tests/realworld_tile/corpus/NVIDIA__cutile-python/).
from contextlib import contextmanager
from dataclasses import dataclass

import cuda.tile as ct


def append(x, val):
    i = ct.gather(x, 0) + 1
    ct.scatter(x, 0, i)
    ct.scatter(x, i, val)


@contextmanager
def foo(x, start_val, end_val):
    append(x, start_val)
    yield start_val
    append(x, end_val)


@contextmanager
def yield_closure(x, a):
    def func():
        append(x, a)
    yield func
    a += 1


@contextmanager
def scaled(t):
    yield t * 2


@ct.kernel
def kern(x: "int32[::1]", y: "float32[::1]"):
    i = 0
    while True:
        with foo(x, 20, 30) as val:
            ct.static_assert(val == 20)
            with yield_closure(x, i) as func:
                func()
                if i == 2:
                    break
            func()
        i += 1
    with scaled(ct.load(y, index=(0,), shape=(4,))) as s:
        ct.store(y, index=(1,), tile=s)


@dataclass(frozen=True)
class Ctx:
    # An instance holding an array, built in the kernel: the name stands for it, and its
    # @contextmanager method takes it as `self`.
    x: ct.Array

    @contextmanager
    def span(self, start_val, end_val):
        append(self.x, start_val)
        yield start_val
        append(self.x, end_val)


@ct.kernel
def method(x: "int32[::1]"):
    obj = Ctx(x)
    with obj.span(20, 30) as val:
        ct.static_assert(val == 20)
        append(x, 40)
# CHECK:STDOUT: kernel kern kern__i32a1C_f32a1C void(int32[::1], float32[::1])
# CHECK:STDOUT:   $67.a: int32
# CHECK:STDOUT:   $67.x: array(int32, 1d, C)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   s: tile(float32, (4,))
# CHECK:STDOUT:   val: int32
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT: kernel method method__i32a1C void(int32[::1])
# CHECK:STDOUT:   obj: Ctx(array(int32, 1d, C))
# CHECK:STDOUT:   val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device foo foo__i32a1C__K20__K30 20(int32[::1], start_val=20, end_val=30)
# CHECK:STDOUT:   end_val: int64
# CHECK:STDOUT:   start_val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device yield_closure yield_closure__i32a1C__i32 <function func>(int32[::1], int32)
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device func func__i32__i32a1C void(int32, int32[::1])
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device scaled scaled__Tf32x4 tile(float32, (4,))(tile(float32, (4,)))
# CHECK:STDOUT:   t: tile(float32, (4,))
# CHECK:STDOUT: device Ctx.span Ctx_span__D3Ctx1i32a1C__K20__K30 20(Ctx(array(int32, 1d, C)), start_val=20, end_val=30)
# CHECK:STDOUT:   end_val: int64
# CHECK:STDOUT:   self: Ctx(array(int32, 1d, C))
# CHECK:STDOUT:   start_val: int64
# CHECK:STDOUT: device append append__i32a1C__K40 void(int32[::1], val=40)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device append append__i32a1C__K20 void(int32[::1], val=20)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device append append__i32a1C__K30 void(int32[::1], val=30)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device append append__i32a1C__i32 void(int32[::1], int32)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   val: int32
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device append append__i32a1C__K20 void(int32[::1], val=20)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device append append__i32a1C__K30 void(int32[::1], val=30)
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   val: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
