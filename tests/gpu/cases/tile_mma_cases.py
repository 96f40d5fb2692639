"""Matrix products of tile kernels (issue 9, docs/TILE.md "Matrix products"):
tests/gpu/kernels/tile_mma_kernels.py against a float64 NumPy reference computed from
the same (rounded) inputs. PyTorch gives the bfloat16 arrays (NumPy has none). Ragged
shapes (padding), 16-byte-aligned rows (cp.async) and odd K (element-wise copies),
strided views, poisoned outputs.

Compiled output: <root>/tile_mma_kernels, from
    pykc compile tests/gpu/kernels/tile_mma_kernels.py --arch sm_90 -o <root>/tile_mma_kernels
"""

import numpy as np

import pykc
from harness import Skip, case

FOLDER = "tile_mma_kernels"


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover
        raise Skip(f"PyTorch is needed for bfloat16 arrays: {e}")
    return torch


def _cdiv(a, b):
    return (a + b - 1) // b


def _check(got, want, rel, what="C"):
    """Max abs error relative to max |want| (at least 1) must be below ``rel``."""
    got = np.asarray(got, dtype=np.float64)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    if not np.all(np.isfinite(got)):
        raise AssertionError(f"{what}: {int((~np.isfinite(got)).sum())} non-finite values")
    scale = max(1.0, float(np.max(np.abs(want))))
    err = float(np.max(np.abs(got - want))) / scale if got.size else 0.0
    if err > rel:
        i = int(np.argmax(np.abs(got - want)))
        raise AssertionError(f"{what}: max error {err:.3e} (relative to {scale:.3g}) > {rel:.1e}"
                             f" at {np.unravel_index(i, want.shape)}: {got.ravel()[i]!r} != "
                             f"{want.ravel()[i]!r}")
    return f"{what} err {err:.1e}"


def _run(ctx, kernel, tdtype, out_dtype, M, N, K, tm, tn, tk, rel, grid1d=False,
         transform=None):
    torch = _torch()
    mod = ctx.load("cuda.core")
    g = torch.Generator(device="cuda").manual_seed(int(ctx.rng.integers(1 << 30)))
    if tdtype == torch.int8:
        a = torch.randint(-128, 128, (M, K), device="cuda", generator=g, dtype=torch.int32).to(torch.int8)
        b = torch.randint(-128, 128, (K, N), device="cuda", generator=g, dtype=torch.int32).to(torch.int8)
    else:
        a = torch.randn(M, K, device="cuda", generator=g).to(tdtype)
        b = torch.randn(K, N, device="cuda", generator=g).to(tdtype)
    if transform is not None:
        a, b = transform(a), transform(b)
    c = torch.full((M, N), float("nan") if out_dtype.is_floating_point else -7,
                   device="cuda", dtype=out_dtype)
    grid = (_cdiv(M, tm) * _cdiv(N, tn),) if grid1d else (_cdiv(M, tm), _cdiv(N, tn))
    pykc.launch(torch.cuda.current_stream(), grid, mod[kernel], (a, b, c, tm, tn, tk))
    torch.cuda.synchronize()
    want = a.double().cpu().numpy() @ b.double().cpu().numpy()
    if tdtype == torch.float32 and kernel == "matmul_tf32":
        pass  # tf32 rounding: the tolerance covers it
    return _check(c.double().cpu().numpy(), want, rel)


@case("tile mma bf16 sample (1-D swizzled grid, bf16 out)", FOLDER)
def mma_sample(ctx):
    torch = _torch()
    out = []
    for M, N, K in [(512, 384, 256), (300, 200, 100), (1000, 130, 70)]:
        out.append(f"{M}x{N}x{K} " + _run(ctx, "matmul_sample", torch.bfloat16, torch.bfloat16,
                                          M, N, K, 128, 128, 32, 1e-2, grid1d=True))
    return "; ".join(out)


@case("tile mma bf16 -> f32 (cp.async pipeline, ragged)", FOLDER)
def mma_bf16_f32(ctx):
    torch = _torch()
    out = []
    for M, N, K in [(256, 256, 512), (129, 257, 40), (64, 64, 8), (640, 512, 1024)]:
        out.append(f"{M}x{N}x{K} " + _run(ctx, "matmul_bf16_f32", torch.bfloat16, torch.float32,
                                          M, N, K, 128, 128, 32, 1e-4))
    return "; ".join(out)


@case("tile mma f16 strided views (element copies)", FOLDER)
def mma_f16_strided(ctx):
    torch = _torch()
    # Transposed copies: strides (1, rows) on both operands.
    def t(x):
        return x.t().contiguous().t()
    out = []
    for M, N, K in [(200, 96, 72), (128, 128, 128)]:
        out.append(f"{M}x{N}x{K} " + _run(ctx, "matmul_f16_strided", torch.float16, torch.float32,
                                          M, N, K, 64, 64, 32, 1e-4, transform=t))
    return "; ".join(out)


@case("tile mma f16 with f16 accumulator", FOLDER)
def mma_f16_acc16(ctx):
    torch = _torch()
    return _run(ctx, "matmul_f16_acc16", torch.float16, torch.float16, 192, 160, 96, 64, 64, 32, 2e-2)


@case("tile mma tf32", FOLDER)
def mma_tf32(ctx):
    torch = _torch()
    return _run(ctx, "matmul_tf32", torch.float32, torch.float32, 200, 136, 120, 64, 64, 16, 2e-3)


@case("tile matmul `@` f16", FOLDER)
def mma_at(ctx):
    torch = _torch()
    return _run(ctx, "matmul_at", torch.float16, torch.float16, 128, 192, 64, 64, 64, 64, 1e-2)


@case("tile mma f32 exact (CUDA cores)", FOLDER)
def mma_f32(ctx):
    torch = _torch()
    return _run(ctx, "matmul_f32", torch.float32, torch.float32, 100, 70, 50, 32, 32, 16, 1e-5)


@case("tile mma f64 (CUDA cores)", FOLDER)
def mma_f64(ctx):
    torch = _torch()
    return _run(ctx, "matmul_f64", torch.float64, torch.float64, 50, 40, 30, 16, 16, 8, 1e-12)


@case("tile mma int8 -> int32", FOLDER)
def mma_i8(ctx):
    torch = _torch()
    return _run(ctx, "matmul_i8", torch.int8, torch.int32, 96, 64, 96, 32, 32, 32, 0.0)


@case("tile mma epilogue: staged operands, bias, relu, row sums", FOLDER)
def mma_epilogue(ctx):
    torch = _torch()
    mod = ctx.load("cuda.core")
    g = torch.Generator(device="cuda").manual_seed(int(ctx.rng.integers(1 << 30)))
    M, N, K, tm, tn, tk = 192, 128, 96, 64, 64, 32
    a = torch.randn(M, K, device="cuda", generator=g).to(torch.bfloat16)
    b = torch.randn(K, N, device="cuda", generator=g).to(torch.bfloat16)
    bias = torch.randn(1, N, device="cuda", generator=g)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    rowsum = torch.full((M, N // tn), float("nan"), device="cuda")
    pykc.launch(torch.cuda.current_stream(), (M // tm, N // tn), mod["matmul_epilogue"],
                (a, b, bias, c, rowsum, tm, tn, tk))
    torch.cuda.synchronize()
    a2 = (a.double() * 2).to(torch.bfloat16).double().cpu().numpy()
    acc = np.maximum(a2 @ b.double().cpu().numpy() + bias.double().cpu().numpy(), 0)
    d = _check(c.double().cpu().numpy(), acc, 1e-2)
    want = acc.reshape(M, N // tn, tn).sum(axis=2)
    return d + "; " + _check(rowsum.double().cpu().numpy(), want, 1e-4, "rowsum")
