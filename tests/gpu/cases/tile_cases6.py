"""Tile kernels, sixth file: tests/gpu/kernels/tile_kernels6.py (ct.extract, ct.cat) on the
GPU against NumPy, through the cases tests/tile_sim runs on the CPU (shape_cases.py:
interleaved real/imaginary parts split and joined back, a run-time sub-tile index, a 0-d
extract, cat along the first axis in float16), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels6, from
    pykc compile tests/gpu/kernels/tile_kernels6.py --arch sm_90 -o <root>/tile_kernels6
"""

import os
import sys

import numpy as np

from harness import case
from cases.tile_cases4 import _Device

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from shape_cases import CONSTS, shape_cases  # noqa: E402

FOLDER = "tile_kernels6"


@case("tile ct.extract and ct.cat: real/imaginary split and join, run-time and 0-d extracts, "
      "cat along axis 0 (float16)", FOLDER)
def tile_extract_cat(ctx):
    dev = _Device(ctx.load(), ctx.via("cupy"), CONSTS)
    out, bad = 0, []
    for what, got, want, kind in shape_cases(dev.run, dev.arr, ctx.rng):
        g, w = np.asarray(got), np.asarray(want)
        out += 1
        if not (kind == "exact" and g.shape == w.shape and np.array_equal(g, w)):
            bad.append(what)
    if bad:
        raise AssertionError(f"{len(bad)} of {out} checks failed: " + "; ".join(bad))
    return f"{out} checks exact"
