"""Tile kernels, twenty-first file: tests/gpu/kernels/tile_kernels21.py (functions defined
inside kernels and helpers: live and frozen captures, defaults, closures passed to and
returned from helpers, ct.reduce with a user function) on the GPU against NumPy, through the cases tests/tile_sim runs on the
CPU (closure_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels21, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels21.py sm_90 <root>/tile_kernels21
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from closure_cases import CONSTS, closure_cases  # noqa: E402

FOLDER = "tile_kernels21"


@case("tile kernels of cuTile's test_closure and test_reduction (issue 22): closures with live and "
      "frozen captures, defaults, closures through helpers, ct.reduce with a user function", FOLDER)
def tile_closure_kernels(ctx):
    return run_shared_cases(closure_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
