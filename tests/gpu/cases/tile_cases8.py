"""Tile kernels, eighth file: tests/gpu/kernels/tile_kernels8.py (8-bit floats) on the
GPU through the cases tests/tile_sim runs on the CPU (float8_cases.py): all 256 codes of
each format decoded, float32 encoded (round to nearest even, saturating; E8M0 rounded
up), and E4M3/E5M2 matrix products, with PyTorch's float8 tensors as the arguments and
PyTorch (or ml_dtypes) as the reference.

Compiled output: <root>/tile_kernels8, from
    pykc compile tests/gpu/kernels/tile_kernels8.py --arch sm_90 -o <root>/tile_kernels8
"""

import os
import sys

import numpy as np

import pykc
from harness import Skip, case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from float8_cases import CONSTS, float8_cases  # noqa: E402

FOLDER = "tile_kernels8"


class _TorchDevice:
    """`run`/`arr` for float8_cases (and mma_scaled_cases, with its `consts`): NumPy arrays
    as CUDA tensors (8-bit codes as PyTorch's float8 dtypes), copied back in place after
    each launch."""

    def __init__(self, mod, torch, consts=CONSTS):
        self.mod, self.torch, self.pending, self.consts = mod, torch, [], consts

    def arr(self, a, name):
        t = self.torch.from_numpy(np.ascontiguousarray(a)).cuda()
        self.pending.append((a, t))
        return [t.view(getattr(self.torch, name)) if name else t]

    def run(self, kernel, grid, args):
        grid = grid if isinstance(grid, tuple) else (grid,)
        args = tuple(np.int32(x) if isinstance(x, int) else x for x in args) + self.consts[kernel]
        pykc.launch(None, grid, getattr(self.mod, kernel), args)
        self.torch.cuda.synchronize()
        for a, t in self.pending:
            a[...] = t.cpu().numpy().reshape(a.shape)
        self.pending = []


@case("tile float8: E4M3/E5M2/E8M0 decoded (all codes) and encoded (RNE, saturating; E8M0 up), "
      "ct.mma of E4M3 and E5M2 tiles", FOLDER)
def tile_float8(ctx):
    try:
        import torch
    except ImportError as e:
        raise Skip(f"PyTorch not importable ({e})")
    if not hasattr(torch, "float8_e8m0fnu"):
        raise Skip("this PyTorch has no float8_e8m0fnu")
    dev = _TorchDevice(ctx.load(), torch)
    out, bad = 0, []
    for what, got, want, kind in float8_cases(dev.run, dev.arr, ctx.rng):
        g, w = np.asarray(got), np.asarray(want)
        if kind == "bool":
            ok = bool(got) == bool(want)
        elif kind == "exact-nan":
            ok = g.shape == w.shape and np.array_equal(g, w, equal_nan=True)
        else:
            ok = g.shape == w.shape and np.array_equal(g, w)
        out += 1
        if not ok:
            bad.append(what)
    if bad:
        raise AssertionError(f"{len(bad)} of {out} checks failed: " + "; ".join(bad))
    return f"{out} checks exact"
