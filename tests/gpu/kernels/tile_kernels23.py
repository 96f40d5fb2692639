"""Tile kernels, twenty-third file: reductions of one-element tiles in kernels whose block has
many threads (a large tile elsewhere sets it), as TileGym's liger cross-entropy and GRPO kernels
write their online log-sum-exp (`m = ct.sum(m_tile, 0)` over a `(1,)` tile, `ct.sum` of a
one-element gather). Every thread holds such a tile's one element: the reduction is that
element, not the sum of the threads' copies (pykc before session 29 multiplied it by the
thread count).
Also: run-time values through `ct.static_eval` (cuTile's test_static_eval), Python's operator
functions on tiles (in and out of `ct.static_eval`), and a product whose right operand is a
transpose, on CUDA cores (TileGym's MLA decode).
Checked on the CPU by tests/tile_sim (reduce_cases.py) and on the GPU by
tests/gpu/cases/tile_cases23.py, both against NumPy.
"""
# pykc-compile: --const static_eval_values.n=1
import operator

import cuda.tile as ct

TILE = 4096


@ct.kernel
def one_element_reductions(x: "float32[::1]", out: "float32[::1]", iout: "int32[::1]"):
    big = ct.load(x, index=(0,), shape=(TILE,))
    one = ct.gather(x, ct.arange(1, dtype=ct.int32) + 3)
    ct.scatter(out, 0, ct.sum(one, 0, keepdims=False))
    ct.scatter(out, 1, ct.sum(big, 0))
    acc = ct.full((1,), 0.0, dtype=ct.float32)
    for i in range(4):
        acc = ct.full((1,), ct.sum(acc, 0, keepdims=False) + ct.sum(one, 0, keepdims=False), dtype=ct.float32)
    ct.scatter(out, 2, ct.sum(acc, 0, keepdims=False))
    two = ct.reshape(one, (1, 1))
    ct.scatter(out, 3, ct.sum(ct.sum(two, 0), 0))
    ct.scatter(out, 4, ct.max(one, 0, keepdims=False))
    ct.scatter(out, 5, ct.prod(one * 2.0, 0))
    ct.scatter(out, 6, ct.min(one - 1.0, 0))
    n = ct.astype(one, ct.int32) + 5
    ct.scatter(iout, 0, ct.sum(n, 0))
    ct.scatter(iout, 1, ct.sum(ct.full((1,), 7, dtype=ct.int32), 0))


@ct.kernel
def static_eval_values(x: "int32[::1]", n: ct.Constant[int]):
    # cuTile's test_static_eval: a run-time value through ct.static_eval (a tuple element, a
    # compile-time choice between two tiles) is that value (pykc lowered it as a call to cos).
    t = ct.gather(x, 0)
    tup = (1, t, 3)
    ct.scatter(x, 2, ct.static_eval(tup[1]) + 5)
    a = ct.gather(x, 0) + 10
    b = ct.gather(x, 1) + 20
    ct.scatter(x, 3, ct.static_eval(a if n == 0 else b) + 100)


@ct.kernel
def transposed_operand_product(q: "bfloat16[:,::1]", k: "bfloat16[:,::1]", out: "float32[:,::1]"):
    # TileGym's MLA decode (`ct.mma(q, ct.transpose(k_tile), acc)`, 16 heads by 64 tokens):
    # a (16, 64) product has no tensor-core layout for the block's 8 warps and runs on CUDA
    # cores; the transpose's relayout passes through the scratch buffer where the left
    # operand was already staged (pykc before session 29 read it back overwritten).
    qt = ct.load(q, index=(0, 0), shape=(16, 64))
    kt = ct.load(k, index=(0, 0), shape=(64, 64))
    ct.store(out, index=(0, 0), tile=ct.mma(qt, ct.transpose(kt), acc=ct.full((16, 64), 0.0, dtype=ct.float32)))


@ct.kernel
def operator_functions(x: "int32[::1]", y: "float32[::1]"):
    # cuTile's test_static_eval_allow_pure_expressions_binary_op: operator.add(a, b) of run-time
    # values, inside ct.static_eval and not.
    a = ct.gather(x, 0) + 15
    b = ct.gather(x, 1) + 4
    ct.scatter(x, 2, ct.static_eval(operator.add(a, b)))
    ct.scatter(x, 3, operator.mul(a, b))
    ct.scatter(x, 4, operator.floordiv(a, b))
    ct.scatter(x, 5, ct.static_eval(ct.maximum(a, b)))
    t = ct.load(y, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=operator.sub(t, 1.0))
