"""The kernels of tests/gpu/kernels/tile_kernels15.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases15.py.

`raw_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"raw_copy": (64,), "raw_scalars": (), "raw_offsets_2d": (), "raw_atomics": (), "interleaved_order": (),
          "carried_rows": (), "enum_modes": (), "known_tuple": (8,)}


def raw_cases(run, arr, rng):
    x = rng.standard_normal(256).astype(np.float32)
    y = np.full(256, np.nan, np.float32)
    run("raw_copy", 4, arr(x) + arr(y))
    want = np.full(256, np.nan, np.float32)
    want[:200] = x[:200] * 2
    want[200:250] = -2.0
    yield "load_offset/store_offset with masks and a padding value", y, want, "exact-nan"
    x = rng.integers(-1000, 1000, 16).astype(np.int32)
    y = np.full(16, -5, np.int32)
    run("raw_scalars", 1, arr(x) + arr(y))
    want = np.full(16, -5, np.int32)
    want[0] = x[3] + 1
    want[1:9] = 7
    yield "scalar offsets, a scalar value stored at a tile of offsets", y, want, "exact"
    m = rng.standard_normal((8, 8)).astype(np.float32)
    out = np.full((8, 8), np.nan, np.float32)
    rows = rng.permutation(64)[:16]
    run("raw_offsets_2d", 1, arr(m) + arr(out) + arr(rows.astype(np.int64)))
    want = np.full(64, np.nan, np.float32)
    want[rows] = m.reshape(-1)[rows] + 0.5
    yield "offsets of a 2-D array loaded from memory", out.reshape(-1), want, "exact-nan"
    n = 300
    keys = rng.integers(0, 32, 384).astype(np.int32)
    counts = np.zeros(32, np.int32)
    best = np.zeros(2, np.int32)
    run("raw_atomics", 3, arr(counts) + arr(keys) + arr(best) + [np.int32(n)])
    yield "atomic_add_offset under a mask (a histogram)", counts, np.bincount(keys[:n], minlength=32), "exact"
    yield "atomic_max_offset at a scalar offset", best[:1], np.array([keys[:n].max()], np.int32), "exact"
    yield "atomic_cas_offset: one block's value wins", np.array([best[1] in (100, 101, 102)]), np.array([True]), \
        "exact"
    a = np.zeros(16, np.float32)
    run("interleaved_order", 1, arr(a))
    want = np.zeros(16, np.float32)
    want[:4] = [100, 100, 101, 100]
    want[4:8] = [101, 101, 102, 1]
    want[8:12] = want[4:8]
    yield "a block's reads see its earlier writes (store/load, gather/scatter, offsets)", a, want, "exact"
    x = rng.standard_normal((12, 256)).astype(np.float32)
    want = np.cumsum(x, axis=0, dtype=np.float32)
    run("carried_rows", 1, arr(x) + [np.int32(12)])
    yield "a loop reading the row its previous trip wrote", x, want, ("close", 1e-5)
    x = rng.standard_normal(96).astype(np.float32)
    y = np.full(96, np.nan, np.float32)
    run("enum_modes", 3, arr(x) + arr(y))
    yield "enum members as constants, Class(value), IntEnum order and arithmetic, an alias", y, \
        ((x * 2 + (x + 1)) * 4 + 1 + 5).astype(np.float32), ("close", 1e-6)
    x = np.full(24, -1, np.int32)
    run("known_tuple", 3, arr(x))
    want = np.concatenate([np.arange(8) * 3 + b * (10 if b % 2 == 0 else 100) for b in range(3)]).astype(np.int32)
    yield "partly constant tuples and one constant on both paths of an if/else as tile widths", x, want, "exact"
