"""Tile kernels, eleventh file: tests/gpu/kernels/tile_kernels11.py (softmax, layer norm,
RMS norm and column statistics of (B, N) tiles with several rows a block, issue 23) on the
GPU against float64 NumPy, through the cases tests/tile_sim runs on the CPU
(rowwise_cases.py: B in 1..64, N 128 and 1024, whole and ragged rows, float32 and float16;
bfloat16 only on the simulator, CuPy has no bfloat16 arrays), with fresh random inputs and
poisoned outputs.

Compiled output: <root>/tile_kernels11, from the file's `# pykc-compile:` lines
(tests/gpu/compile_kernel_file.sh).
"""

import os
import re
import sys

from harness import case
from cases.tile_cases4 import _Device, run_shared_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tile_sim"))
from rowwise_cases import rowwise_cases  # noqa: E402

FOLDER = "tile_kernels11"


class _Specialised(_Device):
    """The cases name a specialisation by its symbol (`softmax__f32a2C_f32a2C__KB_4__KN_1024`):
    the kernel by name, B and N passed as its Constant arguments."""

    def __init__(self, mod, via):
        super().__init__(mod, via, {})

    def run(self, kernel, grid, args):
        m = re.fullmatch(r"(\w+?)__.*__KB_(\d+)__KN_(\d+)", kernel)
        name, b, n = m.group(1), int(m.group(2)), int(m.group(3))
        self.consts[name] = (b, n)
        super().run(name, grid, args)


@case("tile rows: softmax, layer norm, RMS norm of (B, N) tiles, B 1..64, reductions along "
      "axis 1 broadcast back, column sums and maxima along axis 0", FOLDER)
def tile_rows(ctx):
    dev = _Specialised(ctx.load(), ctx.via("cupy"))
    return run_shared_cases(lambda run, arr, rng: rowwise_cases(run, arr, rng, bf16=False), dev, ctx.rng)
