"""PyTorch references for corpus kernels that cuTile refuses on the GPU at hand and whose
tests assert no values (run_vs_cutile.py's `as-asserted` verdict: corpus.json's
`inputs.reference` expressions may call these as `refs.NAME(...)`).

Each follows the kernel's own arithmetic (its float32 operations in its order, its
roundings), so that the comparison can be exact where the kernel's output is bytes."""

FP4_MAX = 6.0
E4M3_EPS = 1.5258789e-05
FP4_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)  # e2m1's magnitudes, codes 0-7


def _nvfp4_scales(x, s_enc):
    """(rows, cols/16) float8_e4m3fn scales of TileGym's nvfp4_quantize: the block's
    absolute maximum / 6 times the global encoding scale, at least E4M3_EPS."""
    import torch
    rows, cols = x.shape
    blocks = x.float().reshape(rows, cols // 16, 16)
    block_max = blocks.abs().amax(dim=2)
    s = s_enc.float().reshape(())
    pre = torch.clamp_min((block_max / FP4_MAX) * s, E4M3_EPS)
    return pre.to(torch.float8_e4m3fn)


def _e2m1_codes(v):
    """float32 -> e2m1 codes (uint8 0-15): round to nearest, ties to the even code,
    saturating at +-6 (cvt.rn.satfinite.e2m1x2.f32)."""
    import torch
    grid = torch.tensor(FP4_GRID, dtype=torch.float32, device=v.device)
    mag = v.abs().clamp_max(FP4_MAX)
    dist = (mag.unsqueeze(-1) - grid).abs()
    best = dist.min(dim=-1, keepdim=True).values
    ties = dist == best  # one or two neighbours; of two, the even code
    codes = torch.arange(8, device=v.device)
    even = ties & (codes % 2 == 0)
    code = torch.where(even.any(dim=-1), (even * codes).sum(dim=-1), (ties * codes).sum(dim=-1))
    sign = (torch.signbit(v)).to(torch.int64) << 3
    return (code | sign).to(torch.uint8)


def nvfp4_packed(x, s_enc):
    """packed_out of nvfp4_quantize for x of (rows, cols), rows % 128 == 0, cols % 64 == 0:
    each element times s_enc / its block's e4m3 scale, as e2m1, two per byte (element 2j
    in byte j's low nibble)."""
    rows, cols = x.shape
    scale = _nvfp4_scales(x, s_enc).float()
    enc = s_enc.float().reshape(()) / scale
    v = x.float().reshape(rows, cols // 16, 16) * enc.unsqueeze(-1)
    codes = _e2m1_codes(v).reshape(rows, cols // 2, 2)
    return codes[..., 0] | (codes[..., 1] << 4)


def nvfp4_swizzled_scales(x, s_enc):
    """scales_out of nvfp4_quantize: per 128x64 tile (tile index m * n_blocks + n), 512
    bytes, scale[r, c] of the tile at (r % 32) * 16 + (r // 32) * 4 + c."""
    rows, cols = x.shape
    import torch
    u8 = _nvfp4_scales(x, s_enc).view(torch.uint8)  # (rows, cols/16)
    m_blocks, n_blocks = rows // 128, cols // 64
    tiles = u8.reshape(m_blocks, 128, n_blocks, 4).permute(0, 2, 1, 3)  # (M, N, r, c)
    swz = tiles.reshape(m_blocks, n_blocks, 4, 32, 4).permute(0, 1, 3, 2, 4)  # (M, N, r%32, r//32, c)
    return swz.reshape(-1)
