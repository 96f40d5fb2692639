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

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from tuple_cases import CONSTS, tuple_cases  # noqa: E402

FOLDER = "tile_kernels10"


@case("tile tuple parameters and tuple variables: a loop over a tuple of arrays, groups "
      "picked at run time, nested indices and len, a tuple index variable, array.shape as a "
      "tuple, a helper from a sibling module, annotated assignments", FOLDER)
def tile_tuples(ctx):
    return run_shared_cases(tuple_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
