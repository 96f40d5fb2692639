"""Tile kernels, fifteenth file: tests/gpu/kernels/tile_kernels15.py (RawArrayMemory:
load_offset, store_offset, atomic_*_offset) on the GPU against NumPy, through the cases
tests/tile_sim runs on the CPU (raw_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels15, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels15.py sm_90 <root>/tile_kernels15
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from raw_cases import CONSTS, raw_cases  # noqa: E402

FOLDER = "tile_kernels15"


@case("tile kernels of cuTile's test files (session 24): RawArrayMemory's load_offset, "
      "store_offset and atomic_*_offset", FOLDER)
def tile_raw_kernels(ctx):
    return run_shared_cases(raw_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
