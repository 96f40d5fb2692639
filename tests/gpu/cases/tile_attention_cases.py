"""Fused multi-head attention in cuTile Python's dialect (tests/gpu/kernels/
tile_attention_kernels.py, written as cuTile's AttentionFMHA sample writes it) against a
float64 NumPy reference of softmax(Q K^T * scale [+ causal mask]) V computed from the
same float16 inputs. Non-causal and causal, key lengths that are and are not multiples
of TILE_N (EVEN_K), query lengths that are not multiples of TILE_M, a query offset
(input_pos), Dqk = Dv = 64 and Dqk = 128 / Dv = 64, grouped-query attention (two query
heads per key/value head); outputs poisoned with NaN before each launch.

Compiled output: <root>/tile_attention_kernels (tests/gpu/build_artifacts.sh ROOT; the
file's `# pykc-compile:` lines give its --sig and --const values).
"""

import numpy as np

import pykc
from harness import Skip, case

FOLDER = "tile_attention_kernels"
H = 4            # query heads (the kernels' H)
TILE_M, TILE_N = 128, 64


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover
        raise Skip(f"PyTorch is needed: {e}")
    return torch


def _cdiv(a, b):
    return (a + b - 1) // b


def reference(q, k, v, scale, causal, input_pos, group):
    """float64 softmax(q k^T * scale [masked]) v per (batch, head); k/v heads shared by
    `group` consecutive query heads. Query row m (absolute position m + input_pos) sees
    keys n <= m + input_pos when causal."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    k = np.repeat(k, group, axis=1)
    v = np.repeat(v, group, axis=1)
    s = np.einsum("bhmd,bhnd->bhmn", q, k) * scale
    if causal:
        m = np.arange(q.shape[2])[:, None] + input_pos
        n = np.arange(k.shape[2])[None, :]
        s = np.where(n <= m, s, -np.inf)
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    return np.einsum("bhmn,bhnd->bhmd", p, v)


def _run(ctx, *, batch, q_len, k_len, dqk, dv, causal, group, input_pos=0, even_k=None):
    torch = _torch()
    mod = ctx.load("cuda.core")
    even_k = (k_len % TILE_N == 0) if even_k is None else even_k
    kv_heads = H // group
    g = torch.Generator(device="cuda").manual_seed(int(ctx.rng.integers(1 << 30)))
    q = torch.randn(batch, H, q_len, dqk, device="cuda", generator=g).to(torch.float16)
    k = torch.randn(batch, kv_heads, k_len, dqk, device="cuda", generator=g).to(torch.float16)
    v = torch.randn(batch, kv_heads, k_len, dv, device="cuda", generator=g).to(torch.float16)
    out = torch.full((batch, H, q_len, dv), float("nan"), device="cuda", dtype=torch.float16)
    scale = 1.0 / np.sqrt(dqk)
    grid = (_cdiv(q_len, TILE_M), batch * H)
    pykc.launch(torch.cuda.current_stream(), grid, mod["attn_fwd"],
                (q, k, v, out, scale, input_pos, dqk, dv, H, TILE_M, TILE_N, group, causal, even_k))
    torch.cuda.synchronize()
    want = reference(q.cpu().numpy(), k.cpu().numpy(), v.cpu().numpy(), scale, causal,
                     input_pos, group)
    got = out.double().cpu().numpy()
    if not np.all(np.isfinite(got)):
        bad = np.argwhere(~np.isfinite(got))[0]
        raise AssertionError(f"{int((~np.isfinite(got)).sum())} non-finite outputs, first at "
                             f"{tuple(int(i) for i in bad)}")
    err = np.abs(got - want)
    # float16 inputs, P rounded to float16 before P @ V, float32 accumulation, a float16
    # output: |error| <= 4e-3 + 1e-2 |want| (the output's rounding alone is 5e-4 |want|).
    tol = 4e-3 + 1e-2 * np.abs(want)
    if np.any(err > tol):
        i = np.unravel_index(int(np.argmax(err - tol)), err.shape)
        raise AssertionError(f"max error {float(err.max()):.3e}; at {i}: {got[i]!r} != {want[i]!r}")
    return (f"b{batch} q{q_len} k{k_len} d{dqk}/{dv}{' causal' if causal else ''}"
            f"{f' pos{input_pos}' if input_pos else ''}{f' gqa{group}' if group > 1 else ''}: "
            f"max err {float(err.max()):.1e}")


@case("tile attention non-causal, k_len % TILE_N == 0 (EVEN_K)", FOLDER)
def attention_even(ctx):
    return "; ".join([
        _run(ctx, batch=2, q_len=256, k_len=256, dqk=64, dv=64, causal=False, group=1),
        _run(ctx, batch=1, q_len=200, k_len=512, dqk=64, dv=64, causal=False, group=1),
    ])


@case("tile attention causal", FOLDER)
def attention_causal(ctx):
    return "; ".join([
        _run(ctx, batch=2, q_len=256, k_len=256, dqk=64, dv=64, causal=True, group=1),
        # A chunk of queries after 256 cached keys (input_pos).
        _run(ctx, batch=1, q_len=128, k_len=384, dqk=64, dv=64, causal=True, group=1, input_pos=256),
    ])


@case("tile attention ragged keys (k_len % TILE_N != 0)", FOLDER)
def attention_ragged(ctx):
    return "; ".join([
        _run(ctx, batch=2, q_len=200, k_len=300, dqk=64, dv=64, causal=False, group=1),
        _run(ctx, batch=1, q_len=77, k_len=333, dqk=64, dv=64, causal=True, group=1, input_pos=256),
        _run(ctx, batch=1, q_len=130, k_len=130, dqk=64, dv=64, causal=True, group=1),
    ])


@case("tile attention Dqk=128, Dv=64", FOLDER)
def attention_d128(ctx):
    return "; ".join([
        _run(ctx, batch=2, q_len=256, k_len=192, dqk=128, dv=64, causal=False, group=1),
        _run(ctx, batch=1, q_len=160, k_len=160, dqk=128, dv=64, causal=True, group=1),
    ])


@case("tile attention grouped-query (2 query heads per key/value head)", FOLDER)
def attention_gqa(ctx):
    return "; ".join([
        _run(ctx, batch=2, q_len=256, k_len=256, dqk=64, dv=64, causal=False, group=2),
        _run(ctx, batch=1, q_len=190, k_len=250, dqk=128, dv=64, causal=True, group=2),
    ])


@case("tile attention file: order= on 2-D loads/stores, truediv RZ/FULL", FOLDER)
def order_div(ctx):
    torch = _torch()
    mod = ctx.load("cuda.core")
    g = torch.Generator(device="cuda").manual_seed(int(ctx.rng.integers(1 << 30)))
    out = []
    for rows, cols in [(40, 24), (300, 200), (64, 64)]:
        x = torch.randn(rows, cols, device="cuda", generator=g)
        y = torch.rand(cols, rows, device="cuda", generator=g) + 0.5
        o = torch.full((rows, cols), float("nan"), device="cuda")
        pykc.launch(torch.cuda.current_stream(), (_cdiv(cols, 16), _cdiv(rows, 16)), mod["order_div"],
                    (x, y, o, 3.0, 16))
        torch.cuda.synchronize()
        xs, ys = x.double().cpu().numpy(), y.double().cpu().numpy()
        want = xs / ys.T + xs / 3.0
        got = o.double().cpu().numpy()
        err = float(np.max(np.abs(got - want))) if np.all(np.isfinite(got)) else float("inf")
        if not err <= 1e-5:
            raise AssertionError(f"{rows}x{cols}: max error {err:.3e}")
        out.append(f"{rows}x{cols} err {err:.1e}")
    return "; ".join(out)
