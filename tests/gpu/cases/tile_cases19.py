"""Tile kernels, nineteenth file: tests/gpu/kernels/tile_kernels19.py (ct.mma_scaled with
float8 and packed float4_e2m1fn operands, float4 conversions) on the GPU through the cases
tests/tile_sim runs on the CPU (mma_scaled_cases.py), with PyTorch's float8 tensors as the
arguments and NumPy references.

Compiled output: <root>/tile_kernels19, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels19.py sm_90 <root>/tile_kernels19
"""

import os
import sys

import numpy as np

from harness import Skip, case
from cases.tile_cases8 import _TorchDevice

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from mma_scaled_cases import CONSTS, mma_scaled_cases  # noqa: E402

FOLDER = "tile_kernels19"


@case("tile ct.mma_scaled: float8 (E8M0 scales) and packed float4_e2m1fn (E4M3 and E8M0 scales) "
      "operands, batched, float4 encode/decode", FOLDER)
def tile_mma_scaled(ctx):
    try:
        import torch
    except ImportError as e:
        raise Skip(f"PyTorch not importable ({e})")
    if not hasattr(torch, "float8_e8m0fnu"):
        raise Skip("this PyTorch has no float8_e8m0fnu")
    dev = _TorchDevice(ctx.load(), torch, CONSTS)
    out, bad = 0, []
    for what, got, want, kind in mma_scaled_cases(dev.run, dev.arr, ctx.rng):
        g, w = np.asarray(got), np.asarray(want)
        if kind == "exact":
            ok = g.shape == w.shape and np.array_equal(g, w)
        else:
            ok = g.shape == w.shape and np.allclose(g.astype(np.float64), w.astype(np.float64),
                                                    rtol=kind[1], atol=kind[1])
        out += 1
        if not ok:
            bad.append(what)
    if bad:
        raise AssertionError(f"{len(bad)} of {out} checks failed: " + "; ".join(bad))
    return f"{out} checks"
