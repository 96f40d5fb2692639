"""Tile kernels, fourth file (docs/TILE.md, "Atomics"): tests/gpu/kernels/tile_kernels4.py
on the GPU against NumPy, through the cases tests/tile_sim/tile_sim.py runs on the CPU
(`atomic_cases`: a histogram with many collisions and its old values, float32/float64
sums within tolerance and exact float16 sums, integer max/min/and/or/xor over colliding
indices (int32, uint32, int64, uint64), xchg and cas with their exact old values,
out-of-bounds indices skipped (old value 0, cas: the expected value), a CAS race between
blocks on scalar indices, a 2-D column-strided target, a scalar update), with fresh random
inputs and poisoned outputs.

Compiled output: <root>/tile_kernels4, from
    pykc compile tests/gpu/kernels/tile_kernels4.py --arch sm_90 -o <root>/tile_kernels4
"""

import os
import sys

import numpy as np

import pykc
from harness import case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from tile_sim import atomic_cases  # noqa: E402

FOLDER = "tile_kernels4"

# The Constant parameters each kernel was compiled with (its defaults), passed last.
CONSTS = {"histogram": (256,), "scatter_add_f32": (128,), "scatter_add_f64": (64,),
          "scatter_add_f16": (256,), "int_rmw": (128,), "wide_rmw": (64,), "xchg_perm": (256,),
          "cas_i32": (128,), "cas_f64": (64,), "claim": (), "add_2d": (16, 32),
          "max_scalar_update": (64,), "locked_rows": (64,), "while_rows": (64,)}


class _Device:
    """`run`/`arr` for atomic_cases on the GPU: each array (a view keeps its strides) is
    copied over, and after the launch its whole base array is copied back in place."""

    def __init__(self, mod, via, consts):
        self.mod, self.via, self.consts, self.pending = mod, via, consts, []

    def arr(self, a):
        base = a if a.base is None else a.base
        dev_base = self.via.to_dev(np.require(base, requirements="C"))  # keeps a 0-d array 0-d
        if base is a:
            dev = dev_base
        else:
            offset = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
            xp = self.via.xp
            dev = xp.ndarray(a.shape, a.dtype, dev_base.data + offset, strides=a.strides)
        self.pending.append((base, dev_base))
        return [dev]

    def run(self, kernel, grid, args):
        grid = grid if isinstance(grid, tuple) else (grid,)
        args = tuple(np.int32(x) if isinstance(x, int) else x for x in args) + self.consts[kernel]
        pykc.launch(None, grid, getattr(self.mod, kernel), args)
        self.via.sync()
        for base, dev_base in self.pending:
            base[...] = self.via.to_host(dev_base).reshape(base.shape)
        self.pending = []


def run_shared_cases(cases, dev, rng):
    """Runs a case list shared with tests/tile_sim (view_cases, tuple_cases) on `dev`:
    each check is exact, exact with NaNs equal, or ("close", tolerance)."""
    out, bad = 0, []
    for what, got, want, kind in cases(dev.run, dev.arr, rng):
        g, w = np.asarray(got), np.asarray(want)
        out += 1
        if kind == "exact-nan":
            ok = g.shape == w.shape and np.array_equal(g, w, equal_nan=True)
        elif kind == "exact":
            ok = g.shape == w.shape and np.array_equal(g, w)
        else:
            ok = g.shape == w.shape and np.allclose(g.astype(np.float64), w, rtol=kind[1], atol=kind[1])
        if not ok:
            bad.append(what)
    if bad:
        raise AssertionError(f"{len(bad)} of {out} checks failed: " + "; ".join(bad))
    return f"{out} checks passed"


@case("tile atomics: histogram, float sums, integer rmw, xchg/cas old values, CAS race, "
      "2-D strided, out of bounds skipped", FOLDER)
def tile_atomics(ctx):
    dev = _Device(ctx.load(), ctx.via("cupy"), CONSTS)
    out, bad = 0, []
    for what, got, want, kind in atomic_cases(dev.run, dev.arr, ctx.rng):
        if kind == "bool":
            ok = got is True or got == want
        elif kind == "exact":
            g, w = np.asarray(got), np.asarray(want)
            ok = g.shape == w.shape and np.array_equal(g, w)
        else:
            g, w = np.asarray(got).astype(np.float64), np.asarray(want, np.float64)
            ok = g.shape == w.shape and np.allclose(g, w, rtol=kind[1], atol=kind[1])
        out += 1
        if not ok:
            bad.append(what)
    if bad:
        raise AssertionError(f"{len(bad)} of {out} checks failed: " + "; ".join(bad))
    return f"{out} checks exact or within tolerance"
