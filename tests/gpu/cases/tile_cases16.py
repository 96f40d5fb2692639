"""Tile kernels, sixteenth file: tests/gpu/kernels/tile_kernels16.py (cuTile's TiledView:
load/store by tile index, traversal steps, 0-d tiles, padding, broadcast stores,
atomic_store_*; constant extents and strides) on the GPU against NumPy, through the cases
tests/tile_sim runs on the CPU (tiledview_cases.py), with fresh random inputs and poisoned
outputs.

Compiled output: <root>/tile_kernels16, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels16.py sm_90 <root>/tile_kernels16
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from tiledview_cases import CONSTS, tiledview_cases  # noqa: E402

FOLDER = "tile_kernels16"


@case("tile kernels of cuTile's test files (issue 22): TiledView and constant extents and strides",
      FOLDER)
def tile_tiledview_kernels(ctx):
    return run_shared_cases(tiledview_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
