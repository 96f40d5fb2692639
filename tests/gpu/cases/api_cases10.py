"""numba idioms of real code (issue 21), fourth file: tests/gpu/kernels/api_kernels10.py
(default parameter values, a shared array sized by a local constant, complex constants,
breakpoint()) run by pykc and by numba-cuda itself on the same inputs; the outputs must be the
same bytes.

Compiled output: <root>/api_kernels10, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels10.py sm_90 <root>/api_kernels10
"""
import numpy as np

from cases.api_cases7 import TPB, _blocks
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
    n = int(ctx.rng.integers(2000, 5000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    return _run_both(ctx, "iou_like", _blocks(n), TPB, lambda: [x.copy(), np.full(n, np.nan, np.float32)], [1])


@case("api10 a shared array sized by a local constant (threads = 8 * 8)", FOLDER)
def _local_constant(ctx):
    n = int(ctx.rng.integers(500, 1000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    blocks = -(-n // 64)
    return _run_both(ctx, "block_sums", blocks, 64, lambda: [x.copy(), np.zeros(blocks, np.float32)], [1])


@case("api10 complex constants (1j, np.complex64(0.5 - 0.25j)) in complex64 arithmetic", FOLDER)
def _complex(ctx):
    n = int(ctx.rng.integers(1000, 3000))
    z = (ctx.rng.standard_normal(n) + 1j * ctx.rng.standard_normal(n)).astype(np.complex64)
    return _run_both(ctx, "rotate", _blocks(n), TPB, lambda: [z.copy(), np.zeros(n, np.complex64)], [1])
