"""Tile kernels, thirteenth file: tests/gpu/kernels/tile_kernels13.py (kernels made inside
functions, compiled ahead of time by their qualified names: a factory given its arguments with
`-D`, cuTile test_reduction's factory, a test function's prelude shadowing module names, a
test method) on the GPU against NumPy, through the cases tests/tile_sim runs on the CPU
(nested_cases.py), with fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels13, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels13.py sm_90 <root>/tile_kernels13
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from nested_cases import CONSTS, nested_cases  # noqa: E402

FOLDER = "tile_kernels13"


@case("tile kernels made inside functions (factories with -D values, cuTile test_reduction's "
      "factory, a test function's prelude, a test method) beside a module-level kernel", FOLDER)
def tile_nested_kernels(ctx):
    return run_shared_cases(nested_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
