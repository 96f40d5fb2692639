"""Tile kernels, twenty-third file: tests/gpu/kernels/tile_kernels23.py (reductions of
one-element tiles in a block of many threads) on the GPU against NumPy, through the cases
tests/tile_sim runs on the CPU (reduce_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels23, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels23.py sm_90 <root>/tile_kernels23
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from reduce_cases import CONSTS, reduce_cases  # noqa: E402

FOLDER = "tile_kernels23"


@case("tile reductions of one-element tiles in a block of many threads (liger cross-entropy's and "
      "GRPO's online log-sum-exp, session 29): the element itself, not a sum over the threads", FOLDER)
def tile_reduce_kernels(ctx):
    return run_shared_cases(reduce_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
