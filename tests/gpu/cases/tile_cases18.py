"""Tile kernels, eighteenth file: tests/gpu/kernels/tile_kernels18.py (helpers with `*args`,
keyword-only, positional-only and `**kwargs` parameters, `*t`/`**d` in calls, functions
passed as values) on the GPU against NumPy, through the cases tests/tile_sim runs on the CPU
(helperargs_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels18, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels18.py sm_90 <root>/tile_kernels18
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from helperargs_cases import CONSTS, helperargs_cases  # noqa: E402

FOLDER = "tile_kernels18"


@case("tile kernels with helpers taking *args, keyword-only and **kwargs parameters, "
      "*t and **d in calls, functions passed as values", FOLDER)
def tile_helperargs_kernels(ctx):
    return run_shared_cases(helperargs_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
