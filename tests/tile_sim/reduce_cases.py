"""The kernels of tests/gpu/kernels/tile_kernels23.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases23.py.

`reduce_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"one_element_reductions": (), "static_eval_values": (1,), "transposed_operand_product": (), "operator_functions": ()}


def reduce_cases(run, arr, rng):
    x = (rng.random(4096) * 4).astype(np.float32)
    out = np.full(7, np.nan, np.float32)
    iout = np.full(2, -1, np.int32)
    run("one_element_reductions", 1, arr(x) + arr(out) + arr(iout))
    v = x[3]
    yield "sum, max, min, prod of a one-element tile in a block of many threads: the element", \
        out[[0, 2, 3, 4, 5, 6]], np.array([v, 4 * v, v, v, 2 * v, v - 1], np.float32), ("close", 1e-6)
    yield "the whole sum of the large tile beside them", out[1], np.float32(x.astype(np.float64).sum()), ("close", 2e-3)
    yield "integer sums of one-element tiles", iout, np.array([int(v) + 5, 7], np.int32), "exact"

    x = rng.integers(-50, 50, 4).astype(np.int32)
    want = x.copy()
    want[2] = x[0] + 5
    want[3] = x[1] + 20 + 100
    run("static_eval_values", 1, arr(x))
    yield "run-time values through ct.static_eval (a tuple element, a compile-time choice)", x, want, "exact"

    import ml_dtypes
    q = rng.random((16, 64)).astype(np.float32).astype(ml_dtypes.bfloat16)
    k = rng.random((64, 64)).astype(np.float32).astype(ml_dtypes.bfloat16)
    out = np.full((16, 64), np.nan, np.float32)
    run("transposed_operand_product", 1, arr(q) + arr(k) + arr(out))
    yield "ct.mma(q, ct.transpose(k)) of (16, 64) on CUDA cores (a transposed right operand)", out, \
        q.astype(np.float64) @ k.astype(np.float64).T, ("close", 1e-5)

    x = np.zeros(6, np.int32)
    x[:2] = rng.integers(1, 50, 2)
    y = rng.random(64).astype(np.float32)
    want_y = y - np.float32(1.0)
    a, b = int(x[0]) + 15, int(x[1]) + 4
    run("operator_functions", 1, arr(x) + arr(y))
    yield "operator.add/mul/floordiv and ct.maximum on run-time values, in ct.static_eval and not", x[2:], \
        np.array([a + b, a * b, a // b, max(a, b)], np.int32), "exact"
    yield "operator.sub on a tile", y, want_y, "exact"
