"""The kernels of tests/gpu/kernels/tile_kernels18.py with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases18.py.

`helperargs_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)`
runs a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with, passed last on the GPU.
CONSTS = {"helper_args": (), "splice_builtin": (), "known_dims": (), "dict_params": ()}


def helperargs_cases(run, arr, rng):
    blocks = 3
    x = rng.standard_normal(32 * blocks).astype(np.float32)
    y = rng.standard_normal(32 * blocks).astype(np.float32)
    out = np.full((8, 32 * blocks), np.nan, np.float32)
    n = 5
    run("helper_args", blocks, arr(x) + arr(y) + arr(out) + [np.int32(n)])
    f = np.float32
    yield "*args of tiles and a keyword-only default", out[0], ((x + y + x) * f(0.5)).astype(f), ("close", 1e-6)
    yield "*t of a run-time tuple", out[1], x + y, ("close", 1e-6)
    yield "keyword-only parameters, **{...} spread", out[2], (x * f(3) + (y * f(2) + f(1))).astype(f), \
        ("close", 1e-6)
    yield "a positional-only parameter", out[3], (x * f(2) + f(1)).astype(f), ("close", 1e-6)
    yield "**kwargs of run-time values, kwargs.get with a default", out[4], (x * y + f(0.5)).astype(f), \
        ("close", 1e-6)
    yield "a function passed as a value, *args forwarded", out[5], (y * f(4)).astype(f), ("close", 1e-6)
    yield "**kwargs of run-time values forwarded with **", out[6], (y * x + f(1)).astype(f), ("close", 1e-6)
    yield "*args mixing a scalar, a tile and a constant; len(*args)", out[7], \
        ((f(n) + x * f(2)) * f(4)).astype(f), ("close", 1e-6)
    x = rng.standard_normal(16).astype(np.float32)
    z = np.full(4, np.nan, np.float32)
    run("splice_builtin", 1, arr(x) + arr(z))
    yield "ct.scatter(*args), args a name for a display holding the array", z[2:3], \
        np.array([x.sum(dtype=np.float32)], np.float32), ("close", 1e-5)
    yield "ct.scatter(*args) writes one element", z[[0, 1, 3]], np.full(3, np.nan, np.float32), "exact-nan"
    x = rng.standard_normal(16).astype(np.float32)
    z = np.full((4, 4), np.nan, np.float32)
    w = np.full((2, 8), np.nan, np.float32)
    run("known_dims", 1, arr(x) + arr(z) + arr(w) + [np.int32(3)])
    yield "*args' constants size tiles beside a run-time number", z, (x * np.float32(3)).reshape(4, 4), \
        ("close", 1e-6)
    yield "*args spliced on to another helper keeps its constants", w, (x * np.float32(3)).reshape(2, 8), \
        ("close", 1e-6)
    x = rng.standard_normal(32).astype(np.float32)
    out = np.full((3, 32), np.nan, np.float32)
    run("dict_params", 1, arr(x) + arr(out))
    yield "a dict display of constants given to a parameter, len(dict)", out[0], (x * np.float32(3) + 1), \
        ("close", 1e-6)
    yield "a dict display of run-time values given to a parameter", out[1], (x * x + 2).astype(np.float32), \
        ("close", 1e-6)
    yield "a function out of **kwargs, called", out[2], x * np.float32(2), ("close", 1e-6)
