"""Tile kernels, twelfth file: tests/gpu/kernels/tile_kernels12.py (advanced indexing:
ct.load_advanced_indexing / ct.store_advanced_indexing with ct.Slice on 2-D and 4-D arrays,
gather/scatter indices held in a tuple variable) on the GPU against NumPy, through the cases
tests/tile_sim runs on the CPU (advanced_cases.py), with fresh random inputs and poisoned
outputs.

Compiled output: <root>/tile_kernels12, from
    pykc compile tests/gpu/kernels/tile_kernels12.py --arch sm_90 -o <root>/tile_kernels12
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from advanced_cases import CONSTS, advanced_cases  # noqa: E402

FOLDER = "tile_kernels12"


@case("tile advanced indexing: load/store_advanced_indexing with ct.Slice (2-D rows, "
      "TileGym's 4-D paged gather), zero padding, skipped out-of-bounds stores, tuple-held "
      "gather/scatter indices", FOLDER)
def tile_advanced_indexing(ctx):
    return run_shared_cases(advanced_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
