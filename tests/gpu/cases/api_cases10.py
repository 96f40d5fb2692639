"""numba idioms of real code (issue 21), fourth file: tests/gpu/kernels/api_kernels10.py
(default parameter values, a shared array sized by a local constant, complex constants,
breakpoint()) run by pykc and by numba-cuda itself on the same inputs; the outputs must be the
same bytes.

Compiled output: <root>/api_kernels10, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels10.py sm_90 <root>/api_kernels10
"""
import numpy as np

from cases.api_cases7 import TPB, _blocks
from cases.api_cases7 import _numba_module, _same
from cases.api_cases9 import _run_both as _run_pair

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "api_kernels10"


def _run_both(ctx, name, grid, tpb, make_args, outputs):
    return _run_pair(ctx, name, lambda ref: getattr(ref, name), grid, tpb, make_args, outputs, "api_kernels10")


@case("api10 default parameter values: a device function with and without its default, a kernel "
      "launched without its defaulted parameter (breakpoint() inside: a no-op)", FOLDER)
def _defaults(ctx):
    # numba-cuda launches a kernel with all its arguments (0.30.4: "Signature mismatch: 2
    # argument types given, but function takes 3"): its run passes the default, -1. It runs
    # iou_like_reference, the same kernel without breakpoint() (a trapping `brkpt` there).
    n = int(ctx.rng.integers(2000, 5000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    mine = [x.copy(), np.full(n, np.nan, np.float32)]
    theirs = [x.copy(), np.full(n, np.nan, np.float32)]
    ctx.load()["iou_like"][_blocks(n), TPB](*mine)
    _numba_module("api_kernels10").iou_like_reference[_blocks(n), TPB](*theirs, -1)
    return _same(mine[1], theirs[1], "iou_like arg 1")


@case("api10 a shared array sized by a local constant (threads = 8 * 8)", FOLDER)
def _local_constant(ctx):
    # numba-cuda 0.30.4 rejects this kernel (a shared array's shape from a local variable is a
    # TypingError there), so the reference is NumPy: each block's float64 sum, in order, of its
    # 64 elements (0 past the end) and 64 ones.
    n = int(ctx.rng.integers(500, 1000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    blocks = -(-n // 64)
    out = np.full(blocks, np.nan, np.float32)
    ctx.load()["block_sums"][blocks, 64](x, out)
    want = np.zeros(blocks, np.float32)
    padded = np.concatenate([x, np.zeros(blocks * 64 - n, np.float32)]).astype(np.float64)
    for b in range(blocks):
        s = 0.0
        for v in list(padded[b * 64:(b + 1) * 64]) + [1.0] * 64:
            s += v
        want[b] = s
    _same(out, want, "block_sums arg 1")
    return "block_sums: same bytes as the NumPy reference (float64 sums in order)"


@case("api10 complex constants (1j, np.complex64(0.5 - 0.25j)) in complex64 arithmetic", FOLDER)
def _complex(ctx):
    n = int(ctx.rng.integers(1000, 3000))
    z = (ctx.rng.standard_normal(n) + 1j * ctx.rng.standard_normal(n)).astype(np.complex64)
    return _run_both(ctx, "rotate", _blocks(n), TPB, lambda: [z.copy(), np.zeros(n, np.complex64)], [1])
