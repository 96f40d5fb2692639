"""Tile kernels, twentieth file: tests/gpu/kernels/tile_kernels20.py (compile-time folding:
strictly typed constants, constant conversions, strings, tuple slices, a while-True loop
that breaks once) on the GPU against NumPy, through the cases tests/tile_sim runs on the
CPU (consts_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels20, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels20.py sm_90 <root>/tile_kernels20
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from consts_cases import CONSTS, consts_cases  # noqa: E402

FOLDER = "tile_kernels20"


@case("tile kernels of cuTile's test_constfold and test_loose_typing (session 27): strictly typed "
      "constants, constant conversions, strings, tuple slices, a while-True loop that breaks once", FOLDER)
def tile_consts_kernels(ctx):
    return run_shared_cases(consts_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
