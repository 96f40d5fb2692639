"""Tile kernels, twenty-fourth file: tests/gpu/kernels/tile_kernels24.py (`with` over
`@contextmanager` generator functions, cuTile's test_contextlib_contextmanager) on the GPU against
the lists cuTile's test asserts, through the cases tests/tile_sim runs on the CPU
(ctxmgr_cases.py).

Compiled output: <root>/tile_kernels24, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/tile_kernels24.py sm_90 <root>/tile_kernels24
"""

import os
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from ctxmgr_cases import CONSTS, ctxmgr_cases  # noqa: E402

FOLDER = "tile_kernels24"


@case("tile kernels of cuTile's test_contextlib_contextmanager: `with` over @contextmanager generators, "
      "cleanups on break/continue/return, yielded constants, closures and tiles", FOLDER)
def tile_ctxmgr_kernels(ctx):
    return run_shared_cases(ctxmgr_cases, _Device(ctx.load(), ctx.via("cupy"), CONSTS), ctx.rng)
