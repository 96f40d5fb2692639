"""The kernels of tests/gpu/kernels/tile_kernels14.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases14.py.

`static_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"producer": (), "consumer": (), "recursive": (109,)}


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
