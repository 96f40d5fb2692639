"""Tile kernels, twenty-sixth file: tests/gpu/kernels/tile_kernels26.py (a frozen dataclass's
__post_init__; a frozen dataclass instance as a Constant) on the GPU against NumPy, through the
cases tests/tile_sim runs on the CPU (dataclass2_cases.py), with fresh random inputs. The
Constant instances are passed as instances; the launcher matches them with the manifest's
{"class", "fields"} values.

Compiled output: <root>/tile_kernels26, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels26.py sm_90 <root>/tile_kernels26
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from dataclass2_cases import CONSTS, dataclass2_cases  # noqa: E402

FOLDER = "tile_kernels26"


@case("tile kernels of cuTile's test_dataclass (issue 22): __post_init__ after the generated "
      "__init__, a frozen dataclass instance as a Constant", FOLDER)
def tile_dataclass2_kernels(ctx):
    return run_shared_cases(dataclass2_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
