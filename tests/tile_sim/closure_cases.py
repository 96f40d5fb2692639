"""The kernels of tests/gpu/kernels/tile_kernels21.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases21.py.

`closure_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"live_captures": (), "tile_captures": (), "frozen_captures": (), "capture_depths": (),
          "defaults_and_arrays": (), "passed_closures": (), "custom_reduce": (), "reduce_tuples": (), "joined_closures": (), "lambda_tuples": ()}


def closure_cases(run, arr, rng):
    x = rng.integers(-50, 50, 4).astype(np.int32)
    y = np.full(6, -1, np.int32)
    n = 15
    run("live_captures", 1, arr(x) + arr(y) + [np.int32(n)])
    v = int(x[0])
    yield "captures read at the call (a parameter, then its new value; a name bound after the lambda)", y, \
        np.array([v + n, v * 2 + 5 + 100, v + 100, v * 2 + 7 + 1000, v * 10 + 7, v - 3], np.int32), "exact"

    x = rng.standard_normal(64 * 3).astype(np.float32)
    y = np.full(64 * 3, np.nan, np.float32)
    s = np.float32(1.75)
    run("tile_captures", 2, arr(x) + arr(y) + [s])
    want = np.full(64 * 3, np.nan, np.float32)
    for b in (1, 2):
        want[64 * b:64 * (b + 1)] = x[64 * b:64 * (b + 1)] * s + x[:64]
    yield "a closure capturing a tile and a run-time scalar", y[64:], want[64:], ("close", 1e-6)

    x = rng.integers(-50, 50, 4).astype(np.int32)
    y = np.full(3, -1, np.int32)
    run("frozen_captures", 1, arr(x) + arr(y))
    t = int(x[0])
    yield "closures returned by helpers: a constant, a parameter, a computed argument frozen", y, \
        np.array([t + 30, 5 + t, 1 + 2 * t], np.int32), "exact"

    x = np.full(5 * 2, -1, np.int32)
    run("capture_depths", 1, arr(x))
    yield "captures at five depths of nested functions", x[:5], np.array([0, 10, 20, 30, 40], np.int32), "exact"

    x = rng.standard_normal(128).astype(np.float32)
    y = np.full(128, np.nan, np.float32)
    z = np.full(64, np.nan, np.float32)
    run("defaults_and_arrays", 1, arr(x) + arr(y) + arr(z))
    f = np.float32
    yield "a nested helper returning a tiled view; defaults and keywords", y, x * f(10) + f(0.5), ("close", 1e-6)
    yield "a closure capturing arrays, called in a loop", z, x[:64] * f(4) + f(3), ("close", 1e-6)

    x = rng.standard_normal(64).astype(np.float32)
    y = np.full(32, np.nan, np.float32)
    run("passed_closures", 1, arr(x) + arr(y))
    t = x[16:32]
    yield "a closure capturing a run-time value passed to a helper", y[:16], (t + x[0]) + (t * f(0) + x[0]), \
        ("close", 1e-6)
    yield "a lambda passed to a helper", y[16:], t * f(2) + t * f(0) * f(2), ("close", 1e-6)

    x = rng.integers(-1000, 1000, (16, 16)).astype(np.int32)
    p = np.array([7], np.int32)
    y = np.full(16 * 5, -1, np.int32)
    run("custom_reduce", 1, arr(x) + arr(y) + arr(p))
    acc = np.zeros(16, np.int64)
    for k in range(16):
        s = acc + x[:, k]
        acc = s - 7 * np.floor_divide(s, 7)  # Python's % (cuTile's), per step
    yield "ct.reduce with a nested def over axis 0", y[:16], x.sum(axis=0, dtype=np.int32), "exact"
    yield "ct.reduce with a lambda capturing a run-time value over axis -1", y[16:32], acc.astype(np.int32), "exact"
    yield "ct.reduce with operator.add over axis 1", y[32:48], x.sum(axis=1, dtype=np.int32), "exact"
    yield "ct.reduce with ct.maximum from the smallest int32", y[48:64], x.max(axis=0), "exact"
    yield "ct.reduce with keepdims=True", y[64:], x.sum(axis=0, dtype=np.int32), "exact"

    x = np.array([[5, 10, 7, 23, 8, 9, -4, 4],
                  [2, 2, 2, 2, 2, 2, 2, 2],
                  [17, 16, 15, 14, 13, 12, 11, 10],
                  [13, 13, 12, 12, 9, 9, 11, 11]], np.int32)
    y = np.full(4, -1, np.int32)
    yi = np.full(4, -1, np.int32)
    w = np.concatenate([rng.standard_normal(256).astype(np.float32) * 3 + 1.5,
                        rng.integers(0, 100, 256).astype(np.float32)])
    mv = np.full(2, np.nan, np.float32)
    run("reduce_tuples", 1, arr(x) + arr(y) + arr(yi) + arr(w) + arr(mv))
    yield "ct.reduce of (values, indices) with a minimum-with-index function", y, np.array([-4, 2, 10, 9], np.int32), \
        "exact"
    yield "... its indices (the first of equal values)", yi, np.array([6, 0, 7, 4], np.int32), "exact"
    xs, ws = w[:256].astype(np.float64), w[256:].astype(np.float64)
    mean = (xs * ws).sum() / ws.sum()
    m2 = (ws * (xs - mean) ** 2).sum()
    yield "Welford's mean and M2 through a 3-tuple ct.reduce", mv, np.array([mean, m2], np.float32), ("close", 1e-3)

    x = rng.integers(-50, 50, 2).astype(np.int32)
    y = np.full(4, -1, np.int32)
    run("joined_closures", 2, arr(x) + arr(y))
    yield "closures chosen by a run-time branch (a capture, a default made variables)", y, \
        np.array([x[0] + 30, x[1] + 40, 3, 4], np.int32), "exact"

    y = np.full(10, -1, np.int32)
    run("lambda_tuples", 1, arr(y))
    yield "tuples of lambdas: stored ones bind late, called ones at once; a closure in a returned tuple; " \
        "unpacked, len()", y, np.array([3, 3, 3, 3, 0, 1, 2, 3, 15, 15], np.int32), "exact"
