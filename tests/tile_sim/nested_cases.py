"""The kernels of tests/gpu/kernels/tile_kernels13.py (kernels made inside functions) with
NumPy references, shared by tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases13.py.

`nested_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"top_level": (64,), "make_unary.kernel": (128,), "make_reduce_axis1_2d.kernel": (4, 64, False),
          "test_prelude.kernel": (), "TestNested.test_rows.kernel": (), "zero_d": (), "prod_rows": (), "list_targets": ()}


def nested_cases(run, arr, rng):
    x = rng.standard_normal(512).astype(np.float32)
    y = np.full(512, np.nan, np.float32)
    run("top_level", 8, arr(x) + arr(y))
    yield "module-level kernel beside nested ones: the module's SHIFT and offset", y, \
        x.astype(np.float64) + 100.0, ("close", 1e-6)
    y = np.full(512, np.nan, np.float32)
    run("make_unary.kernel", 4, arr(x) + arr(y))
    yield "factory make_unary(ct.exp, 0.5) through -D", y, np.exp(x.astype(np.float64)) * 0.5, ("close", 2e-6)
    m = rng.standard_normal((12, 64)).astype(np.float32)
    out = np.full(12, np.nan, np.float32)
    run("make_reduce_axis1_2d.kernel", 3, arr(m) + arr(out))
    yield "cuTile test_reduction's factory with reduce_op=ct.max, keepdims=False", out, m.max(axis=1), "exact"
    y = np.full(512, np.nan, np.float32)
    run("test_prelude.kernel", 16, arr(x) + arr(y))
    yield "test function: its SHIFT, TILE and offset shadow the module's", y, \
        x.astype(np.float64) * 2 + 3.0, ("close", 1e-6)
    m = rng.standard_normal((8, 16)).astype(np.float32)
    out = np.full((8, 16), np.nan, np.float32)
    run("TestNested.test_rows.kernel", 4, arr(m) + arr(out))
    want = m.astype(np.float64).sum(axis=1, keepdims=True) - m
    yield "test method kernel: row sums of its (ROWS, COLS) tiles minus the tile", out, want, ("close", 1e-5)
    x = np.array(7, np.int32)
    y = np.array(rng.standard_normal(), np.float32)
    out = np.full(3, np.nan, np.float32)
    run("zero_d", 1, arr(x) + arr(y) + arr(out))
    yield "0-d arrays: gather/scatter at ()", x, np.array(27, np.int32), "exact"
    yield "0-d arrays: a load of shape ()", out[:1], np.array([y * 2], np.float32), "exact"
    m = (1 + 0.05 * rng.standard_normal((8, 32))).astype(np.float32)
    rows, cols = np.full(8, np.nan, np.float32), np.full(64, np.nan, np.float32)
    run("prod_rows", 2, arr(m) + arr(rows) + arr(cols))
    want_cols = np.concatenate([m[:4].astype(np.float64).prod(axis=0), m[4:].astype(np.float64).prod(axis=0)])
    yield "ct.prod along axis 1", rows, m.astype(np.float64).prod(axis=1), ("close", 1e-5)
    yield "ct.prod along axis 0", cols, want_cols, ("close", 1e-5)
    x = rng.integers(-50, 50, 32).astype(np.int32)
    y = np.zeros(16, np.int32)
    run("list_targets", 1, arr(x) + arr(y))
    u, v = x[:16].astype(np.int64), x[16:].astype(np.int64)
    yield "list and nested unpacking targets", y, (u * 1 + v * 2 + (u + v) * 12).astype(np.int32), "exact"
