"""Tile kernels, seventh file: tests/gpu/kernels/tile_kernels7.py (cuTile's operator
functions, math functions, `item()`, 0-d tiles as numbers) on the GPU against NumPy,
through the cases tests/tile_sim runs on the CPU (operator_cases.py), with fresh random
inputs and poisoned outputs; and the APPROX rounding modes of ct.sqrt and ct.tanh, which
the CPU simulator cannot run (PTX's sqrt.approx.f32 and tanh.approx.f32).

Compiled output: <root>/tile_kernels7, from
    pykc compile tests/gpu/kernels/tile_kernels7.py --arch sm_90 -o <root>/tile_kernels7
"""

import os
import sys

import numpy as np

from harness import case
from cases.tile_cases4 import _Device

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from operator_cases import CONSTS, operator_cases  # noqa: E402

FOLDER = "tile_kernels7"


@case("tile operator functions (ct.negative/floordiv/mod/pow/bitwise_*/greater/...), floor/ceil/"
      "tan/sinh/cosh/isnan/atan2, item(), 0-d tiles as numbers", FOLDER)
def tile_operator_fns(ctx):
    dev = _Device(ctx.load(), ctx.via("cupy"), dict(CONSTS, approx_fns=(128,)))
    out, bad = 0, []
    for what, got, want, kind in operator_cases(dev.run, dev.arr, ctx.rng):
        g, w = np.asarray(got), np.asarray(want)
        if kind == "exact":
            ok = g.shape == w.shape and np.array_equal(g, w)
        else:
            ok = g.shape == w.shape and np.allclose(g.astype(np.float64), w.astype(np.float64),
                                                    rtol=kind[1], atol=kind[1])
        out += 1
        if not ok:
            bad.append(what)
    # APPROX: PTX's approximations (sqrt.approx: 2^-22 relative; tanh.approx: 2^-10.7).
    n = 3 * 128
    x = ctx.rng.uniform(0.01, 50.0, n).astype(np.float32)
    y = ctx.rng.uniform(-4.0, 4.0, n).astype(np.float32)
    res = np.full((2, n), np.nan, np.float32)
    dev.run("approx_fns", 3, dev.arr(x) + dev.arr(y) + dev.arr(res))
    for what, got, want, tol in (("ct.sqrt APPROX", res[0], np.sqrt(x.astype(np.float64)), 1e-6),
                                 ("ct.tanh APPROX", res[1], np.tanh(y.astype(np.float64)), 1e-3)):
        out += 1
        if not np.allclose(got, want, rtol=tol, atol=tol):
            bad.append(what)
    if bad:
        raise AssertionError(f"{len(bad)} of {out} checks failed: " + "; ".join(bad))
    return f"{out} checks exact or within tolerance"
