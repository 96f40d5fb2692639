"""Tile kernels, fourteenth file: tests/gpu/kernels/tile_kernels14.py (programmatic dependent
launch, helpers recursing on a Constant, ...) on the GPU against NumPy, through the cases
tests/tile_sim runs on the CPU (static_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels14, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels14.py sm_90 <root>/tile_kernels14
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from static_cases import CONSTS, static_cases  # noqa: E402

FOLDER = "tile_kernels14"


@case("tile kernels of cuTile's test files (session 23): PDL's griddepcontrol, helpers recursing "
      "on a Constant, ct.static_iter loops, tuple comprehensions and concatenation, host-evaluated "
      "ct.static_eval", FOLDER)
def tile_static_kernels(ctx):
    return run_shared_cases(static_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
