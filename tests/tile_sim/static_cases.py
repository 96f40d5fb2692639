"""The kernels of tests/gpu/kernels/tile_kernels14.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases14.py.

`static_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

from tuple_cases import _packer

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"producer": (), "consumer": (), "recursive": (109,), "static_weighted": (), "static_columns": (),
          "static_comprehension": (), "static_host_eval": (4,), "static_tuple_params": (), "astiles": (), "tuple_compares": ()}


def static_cases(run, arr, rng):
    a = rng.standard_normal(128).astype(np.float32)
    b = rng.standard_normal(128).astype(np.float32)
    produced = np.full(128, np.nan, np.float32)
    out = np.full(128, np.nan, np.float32)
    run("producer", 4, arr(a) + arr(produced))
    run("consumer", 4, arr(b) + arr(produced) + arr(out))
    yield "PDL: producer's launch_dependents", produced, a * 2 + 1, "exact"
    yield "PDL: consumer's wait, then the producer's output", out, (a * 2 + 1) + b, "exact"
    x = np.array(100.0, np.float32)
    y = np.array(np.nan, np.float32)
    run("recursive", 1, arr(x) + arr(y))
    yield "a helper recursing on a Constant (109 levels)", y, np.array(209.0, np.float32), "exact"
    x = rng.integers(-100, 100, 48).astype(np.int32)
    y = np.full(16, -1, np.int32)
    run("static_weighted", 1, arr(x) + arr(y))
    a, b, c = x[:16], x[16:32], x[32:]
    yield "ct.static_iter over enumerate(tiles, 1), range(len(tiles)) and a tuple display", y, \
        (a + 2 * b + 3 * c) * 2 + a + c, "exact"
    m = rng.integers(-100, 100, (4, 48)).astype(np.int32)
    y = np.full(96, -1, np.int32)
    run("static_columns", 1, arr(m) + arr(y))
    cols = [m[:, 16 * j:16 * (j + 1)].sum(axis=0) for j in range(3)]
    yield "a run-time loop in a compile-time one, a tuple grown with +=", y, \
        np.concatenate([v for s in cols for v in (s, s * 2)]).astype(np.int32), "exact"
    x = rng.standard_normal(48).astype(np.float32)
    y = np.full(16 * 11, np.nan, np.float32)
    run("static_comprehension", 1, arr(x) + arr(y))
    t = [x[:16], x[16:32], x[32:]]
    rot = [t[1], t[2], t[0]]
    want = rot + [rot[0] * 1.0, rot[2] * 3.0] + [np.float32(w) + t[0] for j in range(4) for w in (i * 2 for i in range(j))]
    yield "tuple comprehensions: range, zip with a filter, nested constants", y, np.concatenate(want), "exact"
    y = np.full(32, -1, np.int32)
    run("static_host_eval", 2, arr(y))
    yield "ct.static_eval of a module function and a comprehension", y, \
        np.tile(24 + 14 + np.arange(16), 2).astype(np.int32), "exact"
    tup = _packer(arr)
    ms = [rng.standard_normal((32, 16)).astype(np.float32) for _ in range(3)]
    out = np.full((32, 16), np.nan, np.float32)
    run("static_tuple_params", 2, tup(*(arr(m) for m in ms)) + tup(3, 2, -1) + arr(out))
    want = ms[0].astype(np.float64) * 3 + ms[1] * 2.0 - ms[2]
    yield "ct.static_iter over zip of a tuple of arrays and a tuple of numbers", out, want, ("close", 1e-6)
    x = np.full((2, 2, 2), np.nan, np.float32)
    flags = np.full((4, 2), -1, np.int32)
    run("astiles", 1, arr(x) + arr(flags) + [7, np.float32(2.5), np.bool_(True)])
    want = np.array([[[1, 7], [2, 8]], [[3, 2.5], [4, 1]]], np.float32) + 10
    yield "ct.astile of nested constants and run-time numbers", x, want, "exact"
    yield "ct.astile of a module's bool tuple, as int32", flags, np.array(
        [[1, 0], [1, 1], [0, 0], [1, 0]], np.int32), "exact"
    for a, c in ((0, 0.5), (2, 2.0), (7, 7.0), (5, 0.25)):
        y = np.full(16, -1, np.int32)
        run("tuple_compares", 1, arr(y) + [a, np.float32(c)])
        bits = ((a in (0, 2)) * 1 + (a not in (c, 7)) * 2 + ((a, 1) == (0, 1)) * 4 +
                (((a, 1), 2) != ((0, 1), 2)) * 8 + ((a, 1) in ((0, 1), (2, 1))) * 16 + (c in (0.5, a)) * 32 +
                a * 64 + 8)
        yield f"tuple comparisons and a starred display with a={a}, c={c}", y, np.full(16, bits, np.int32), "exact"
