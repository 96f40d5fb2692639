"""Tile kernels, tenth file: tests/gpu/kernels/tile_kernels10.py (tuples of arrays and
numbers as parameters, tuple variables) on the GPU against NumPy, through the cases
tests/tile_sim runs on the CPU (tuple_cases.py: a loop over a tuple of arrays, groups picked
by a run-time index, constant/negative/nested indices and len, an index and weights held in
tuple variables), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels10, from
    pykc compile tests/gpu/kernels/tile_kernels10.py --arch sm_90 -o <root>/tile_kernels10
"""

import os
import sys

import numpy as np

from harness import case
from cases.tile_cases4 import _Device

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from tuple_cases import CONSTS, tuple_cases  # noqa: E402

FOLDER = "tile_kernels10"


@case("tile tuple parameters and tuple variables: a loop over a tuple of arrays, groups "
      "picked at run time, nested indices and len, a tuple index variable, array.shape as a "
      "tuple, a helper from a sibling module, annotated assignments", FOLDER)
def tile_tuples(ctx):
    dev = _Device(ctx.load(), ctx.via("cupy"), CONSTS)
    out, bad = 0, []
    for what, got, want, kind in tuple_cases(dev.run, dev.arr, ctx.rng):
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
