"""Tile kernels, ninth file: tests/gpu/kernels/tile_kernels9.py (arrays held in variables,
cuTile's Array.slice) on the GPU against NumPy, through the cases tests/tile_sim runs on the
CPU (view_cases.py: ragged row segments, a column window passed to a helper, a view chosen
in a run-time branch, a ragged matmul), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels9, from
    pykc compile tests/gpu/kernels/tile_kernels9.py --arch sm_90 -o <root>/tile_kernels9
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from view_cases import CONSTS, view_cases  # noqa: E402

FOLDER = "tile_kernels9"


@case("tile Array.slice and array variables: ragged segments, a column window through a "
      "helper, a view chosen at run time, a ragged matmul", FOLDER)
def tile_array_views(ctx):
    return run_shared_cases(view_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
