"""Tile kernels, twenty-fourth file: `with` over `@contextmanager` generator functions
(cuTile 1.7's generator-based context managers; its test_contextlib_contextmanager): the
statements before the one `yield` run, `as` binds the yielded value (a constant stays one, a
closure keeps working after the `with`), the body runs, then the statements after the
`yield`; `break`, `continue` and `return` in the body (nested `with`s, run-time loops) run
the cleanups innermost first. Each kernel appends to a counter-headed list in `x`.
Checked on the CPU by tests/tile_sim (ctxmgr_cases.py) and on the GPU by
tests/gpu/cases/tile_cases24.py, both against the lists cuTile's test expects.
Several kernels and helpers here are adapted from cutile-python's
test/test_contextlib_contextmanager.py (commit 9c3ee3c, Apache-2.0, (c) NVIDIA), whose
verbatim copy is tests/realworld_tile/corpus/NVIDIA__cutile-python/.
"""
from contextlib import contextmanager
from dataclasses import dataclass

import cuda.tile as ct
from cuda.tile import static_assert


def append(x, val):
    i = ct.gather(x, 0) + 1
    ct.scatter(x, 0, i)
    ct.scatter(x, i, val)


@contextmanager
def foo(x, start_val, end_val):
    append(x, start_val)
    yield start_val
    append(x, end_val)


@ct.kernel
def cm_basic(x: "int32[::1]"):
    append(x, 10)
    with foo(x, 20, 30) as val:
        append(x, 40)
        static_assert(val == 20)
    append(x, 50)


@ct.kernel
def cm_nested(x: "int32[::1]"):
    append(x, 10)
    with foo(x, 20, 30) as val:
        static_assert(val == 20)
        append(x, 40)
        with foo(x, 50, 60) as val2:
            static_assert(val2 == 50)
            append(x, 70)
        append(x, 80)
    append(x, 90)


@ct.kernel
def cm_break(x: "int32[::1]"):
    i = 0
    while True:
        with foo(x, 100 + i, 200 + i):
            append(x, i)
            if i == 2:
                break
        i += 1


@contextmanager
def wrap_foo(x, a, b, c, d, e, f):
    append(x, a)
    with foo(x, b, e) as res:
        append(x, c)
        yield res + 1
        append(x, d)
    append(x, f)


@ct.kernel
def cm_inside_cm(x: "int32[::1]"):
    append(x, 10)
    with wrap_foo(x, 20, 30, 40, 60, 70, 80) as r:
        append(x, 50)
        static_assert(r == 31)
    append(x, 90)


@ct.kernel
def cm_break_nested(x: "int32[::1]"):
    i = 0
    while True:
        with wrap_foo(x, 10 + i, 20 + i, 30 + i, 40 + i, 50 + i, 60 + i):
            append(x, i)
            if i == 1:
                break
        i += 1


@contextmanager
def enter_context_in_cleanup(x, a, b, c, d, e):
    append(x, a)
    yield
    append(x, b)
    with foo(x, c, e):
        append(x, d)


@ct.kernel
def cm_in_cleanup(x: "int32[::1]"):
    append(x, 10)
    i = 0
    while True:
        with enter_context_in_cleanup(x, 20 + i, 40 + i, 50 + i, 60 + i, 70 + i):
            append(x, 30 + i)
            if i == 1:
                break
        i += 1
    append(x, 80)


@contextmanager
def yield_closure(x, a, b, c):
    def func():
        append(x, a)
    append(x, b)
    yield func
    a += 1
    append(x, c)


@ct.kernel
def cm_closure(x: "int32[::1]"):
    with yield_closure(x, 10, 20, 30) as func:
        func()
    func()


@ct.kernel
def cm_closure_break(x: "int32[::1]"):
    i = 0
    while True:
        with yield_closure(x, 10 + i * 100, 20 + i * 100, 30 + i * 100) as func:
            func()
            if i == 2:
                break
        func()
        i += 1


@ct.kernel
def cm_break_order(x: "int32[::1]"):
    i = 0
    while True:
        with foo(x, 1, 2):
            with foo(x, 3, 4):
                append(x, 9)
                if ct.bid(0) == 0:
                    break
        i += 1


@ct.kernel
def cm_continue_order(x: "int32[::1]"):
    i = 0
    while i < 1:
        with foo(x, 1, 2):
            with foo(x, 3, 4):
                append(x, 9)
                i += 1
                continue


@ct.kernel
def cm_return_order(x: "int32[::1]"):
    with foo(x, 1, 2):
        with foo(x, 3, 4):
            append(x, 9)
            return


@ct.kernel
def cm_break_outer(x: "int32[::1]"):
    with foo(x, 1, 2):
        while True:
            with foo(x, 3, 4):
                with foo(x, 5, 6):
                    append(x, 9)
                    break
        append(x, 7)


def closure_helper(x, return_early):
    with yield_closure(x, 10, 20, 30) as func:
        func()
        if return_early:
            return func
    return func


@ct.kernel
def cm_helper_return(x: "int32[::1]", return_early: "bool"):
    func = closure_helper(x, return_early)
    func()


@contextmanager
def dead_yield_after_break(x):
    append(x, 1)
    yield
    while True:
        append(x, 3)
        break
        yield  # dead: unreachable after break


@ct.kernel
def cm_dead_break(x: "int32[::1]"):
    with dead_yield_after_break(x):
        append(x, 9)


@contextmanager
def dead_yield_after_continue(x):
    append(x, 1)
    yield
    i = 0
    while i < 2:
        append(x, 10 + i)
        i += 1
        continue
        yield


@ct.kernel
def cm_dead_continue(x: "int32[::1]"):
    with dead_yield_after_continue(x):
        append(x, 9)


@contextmanager
def scaled(x, t):
    # A run-time tile yielded (a value, not a constant), the cleanup reading a local.
    s = t * 2
    append(x, 1)
    yield s + 1
    append(x, ct.sum(s))


@ct.kernel
def cm_tile_value(x: "int32[::1]", y: "int32[::1]"):
    t = ct.load(y, index=(0,), shape=(4,))
    with scaled(x, t) as u:
        append(x, ct.sum(u))
        ct.store(y, index=(1,), tile=u)


@dataclass(frozen=True)
class Span:
    base: int

    @contextmanager
    def enter(self, x, end_val):
        append(x, self.base)
        yield self.base + 1
        append(x, end_val)


@ct.kernel
def cm_method(x: "int32[::1]"):
    append(x, 10)
    obj = Span(ct.bid(0) + 20)
    with obj.enter(x, 30) as val:
        append(x, val)
    with Span(7).enter(x, 8) as seven:
        append(x, seven)
    append(x, 50)


@dataclass(frozen=True)
class DataclassWithCtxMethod:
    x: ct.Array

    @contextmanager
    def foo(self, start_val, end_val):
        append(self.x, start_val)
        yield start_val
        append(self.x, end_val)


@ct.kernel
def cm_dataclass_method(x: "int32[::1]"):
    append(x, 10)
    obj = DataclassWithCtxMethod(x)
    with obj.foo(20, 30) as val:
        append(x, 40)
        static_assert(val == 20)
    append(x, 50)


@dataclass(frozen=True)
class Sink:
    out: ct.Array
    base: int
    pair: tuple

    def put(self, v):
        append(self.out, v + self.base + self.pair[1])


def put_twice(sink, v):
    sink.put(v)
    sink.put(v * 2)


@ct.kernel
def cm_array_instance(x: "int32[::1]"):
    # An instance holding an array and run-time numbers, given to methods and helpers.
    s = Sink(x, ct.bid(0) + 100, (1, ct.bid(0) + 3))
    s.put(1)
    put_twice(s, 5)
    Sink(x, 7, (0, 0)).put(2)


@ct.kernel
def cm_for_mixed(x: "int32[::1]", n: "int32"):
    # A run-time value yielded; `continue` and `break` in a `range` loop; a `with` in a
    # run-time branch with keyword arguments; `return` from a loop inside nested `with`s.
    for i in range(n):
        with foo(x, 100 + i, 200 + i) as v:
            if i == 1:
                continue
            if i == 3:
                break
            append(x, v)
    if n > 2:
        with foo(x, end_val=7, start_val=6):
            append(x, 8)
    with foo(x, 1, 2):
        for j in range(3):
            with foo(x, 10 + j, 20 + j):
                if j == 1:
                    return


@dataclass(frozen=True)
class WithSetitem:
    x: ct.Array

    def __setitem__(self, i, val):
        ct.scatter(self.x, i, val * 10)


@ct.kernel
def array_setitem(x: "int32[::1]"):
    # cuTile's test_dataclass: `__setitem__` of an instance holding the array, built here.
    d = WithSetitem(x)
    d[1] = 5
