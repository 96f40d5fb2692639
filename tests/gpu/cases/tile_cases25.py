"""Tile kernels, twenty-fifth file: tests/gpu/kernels/tile_kernels25.py (module dicts with
enum keys indexed at compile time, a helper's returned bound method, static_eval host effects,
a constant's astype, operator functions by name, a @static_def __init__) on the GPU against
NumPy, through the cases tests/tile_sim runs on the CPU (misc25_cases.py), with fresh random
inputs.

Compiled output: <root>/tile_kernels25, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels25.py sm_90 <root>/tile_kernels25
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from misc25_cases import CONSTS, misc25_cases  # noqa: E402

FOLDER = "tile_kernels25"


@case("tile kernels of cuTile's test_atomic, test_tiled_view, test_static_eval and test_dataclass "
      "(issue 22): module dicts by enum key, a returned bound method, static_eval host effects, "
      "a @static_def __init__", FOLDER)
def tile_misc25_kernels(ctx):
    return run_shared_cases(misc25_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
