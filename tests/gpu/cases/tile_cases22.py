"""Tile kernels, twenty-second file: tests/gpu/kernels/tile_kernels22.py (cuTile's frozen
dataclasses: instances built in kernels, fields, dataclasses.replace, methods, properties,
dunders, a base class, and a dataclass kernel parameter launched with an instance) on the GPU
against NumPy, through the cases tests/tile_sim runs on the CPU (dataclass_cases.py), with
fresh random inputs and poisoned outputs.

Compiled output: <root>/tile_kernels22, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels22.py sm_90 <root>/tile_kernels22
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from dataclass_cases import CONSTS, dataclass_cases  # noqa: E402

FOLDER = "tile_kernels22"


@case("tile kernels of cuTile's test_dataclass (issue 22): frozen dataclasses built in kernels, "
      "methods, properties, dunders, dataclasses.replace, and a dataclass kernel parameter", FOLDER)
def tile_dataclass_kernels(ctx):
    return run_shared_cases(dataclass_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
