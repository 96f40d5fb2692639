"""Tile kernels, fourteenth file: what cuTile's test files use that session 23 added (issue 22):
programmatic dependent launch (`ct.grid_dependency_control_*`), helpers that recurse on a
Constant (cuTile's test_helper_function). Checked on the CPU by tests/tile_sim
(static_cases.py) and on the GPU by tests/gpu/cases/tile_cases14.py, both against NumPy.
"""
# pykc-compile: --const recursive.N=109

import cuda.tile as ct


@ct.kernel
def producer(a: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    ct.grid_dependency_control_launch_dependents()
    t = ct.load(a, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=t * 2 + 1)


@ct.kernel
def consumer(b: "float32[::1]", produced: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    t = ct.load(b, index=(bid,), shape=(32,))
    ct.grid_dependency_control_wait()
    p = ct.load(produced, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=p + t)


def add_levels(x, N):
    if N > 0:
        y = add_levels(x, N - 1) + 1
    else:
        y = x
    return y


@ct.kernel
def recursive(x: "float32[()]", out: "float32[()]", N: ct.Constant[int] = 3):
    t = ct.gather(x, ())
    ct.scatter(out, (), add_levels(t, N))
