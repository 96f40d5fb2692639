# Source: https://github.com/NVIDIA/TileGym/blob/75a14307776188ff0baf451cd9b9fc9fa3a87233/src/tilegym/ops/cutile/layer_norm_legacy.py
# Commit: 75a14307776188ff0baf451cd9b9fc9fa3a87233; licence: MIT (TileGym's LICENSE). Unchanged below this header.
# SPDX-FileCopyrightText: Copyright (c) 2025 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
#
# SPDX-License-Identifier: MIT

from types import SimpleNamespace

import cuda.tile as ct
import torch
from cuda.tile.tune import exhaustive_search

from tilegym.autotune import is_autotune_enabled
from tilegym.backend import register_impl

from .utils import next_power_of_2

# Module-level tune cache: (N, D, BLOCK_D, IS_SWISH, TRAINING, COMPUTE_MEAN_AND_RSTD, dtype, device) -> (best_cfg, tuned_kernel)
_layer_norm_legacy_tune_cache: dict = {}

PAD_ZERO = ct.PaddingMode.ZERO


def _persistent_layer_norm_autotune_configs():
    """
    Autotune config generator for persistent layer norm.

    Generates configurations:
    - BLOCK_N: [1, 2, 4, 8, 16, 32] - number of rows per block
    - num_worker_warps: [4, 8] - CUDA-core warp-group width (Triton ``num_warps``
      equivalent). Normalization-style kernels with large tiles are the
      canonical case for tuning this hint, and nww=8 (256 threads) is a large
      win on the bandwidth-bound small-D shapes.
    - num_ctas: [1] - single CTA for this kernel
    """
    for block_n in [1, 2, 4, 8, 16, 32]:
        for num_worker_warps in [4, 8]:
            yield SimpleNamespace(BLOCK_N=block_n, num_ctas=1, num_worker_warps=num_worker_warps)


def _get_default_persistent_layer_norm_configs(BLOCK_D=None):
    """GPU-specific defaults when autotune is disabled."""
    gpu_capability = torch.cuda.get_device_capability()
    if gpu_capability[0] < 9:
        # SM80 (A100): limit BLOCK_N for 2-block occupancy.
        if BLOCK_D is not None:
            max_block_n = max(1, 10496 // BLOCK_D)
            p = 1
            while p * 2 <= max_block_n:
                p *= 2
            block_n = min(8, p)
        else:
            block_n = 8
        return {"BLOCK_N": block_n, "num_ctas": 1, "num_worker_warps": 8}
    return {"BLOCK_N": 8, "num_ctas": 1, "num_worker_warps": 8}


def _persistent_layer_norm_early_config_prune(configs, N, D, BLOCK_D):
    """Prune configs that exceed register limits."""
    pruned_configs = []
    _cap = torch.cuda.get_device_capability()
    for cfg in configs:
        BLOCK_N = cfg.BLOCK_N
        # Register limit check: BLOCK_N * BLOCK_D / (8 * 32) <= 256
        if BLOCK_N * BLOCK_D / (8 * 32) <= 256:
            pruned_configs.append(cfg)
    return pruned_configs


@ct.kernel
def _layer_norm_fwd_kernel(
    X,
    Y,
    W,
    B,
    Mean,
    Rstd,
    N: ct.Constant[int],
    EPS: ct.Constant[float],
    WEIGHT_SHIFT: ct.Constant[float],
    BLOCK_SIZE: ct.Constant[int],
):
    # X, Y are 2D (M, N); row index from grid. Bounds (row < M, cols < N) mask partial block.
    row = ct.bid(0)
    row_tile = ct.full((BLOCK_SIZE,), row, dtype=ct.int32)

    # Compute mean
    _mean = ct.zeros((BLOCK_SIZE,), dtype=ct.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + ct.arange(BLOCK_SIZE, dtype=ct.int32)
        a = ct.gather(X, (row_tile, cols), padding_value=0)
        a = ct.astype(a, ct.float32)
        _mean = _mean + a
    mean = ct.sum(_mean, axis=0) / N

    # Compute variance
    _var = ct.zeros((BLOCK_SIZE,), dtype=ct.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + ct.arange(BLOCK_SIZE, dtype=ct.int32)
        x = ct.gather(X, (row_tile, cols), padding_value=0)
        x = ct.astype(x, ct.float32)
        mask = cols < N
        x = ct.where(mask, x - mean, ct.zeros((BLOCK_SIZE,), dtype=ct.float32))
        _var = _var + x * x
    var = ct.sum(_var, axis=0) / N
    rstd = ct.rsqrt(var + EPS)

    # Write mean / rstd (1D arrays)
    mean_offset = ct.full((1,), row, dtype=ct.int32)
    mean_val_reshaped = ct.reshape(mean, (1,))
    ct.scatter(Mean, mean_offset, mean_val_reshaped)

    rstd_offset = ct.full((1,), row, dtype=ct.int32)
    rstd_val_reshaped = ct.reshape(rstd, (1,))
    ct.scatter(Rstd, rstd_offset, rstd_val_reshaped)

    # Normalize and apply linear transformation; scatter to 2D Y so cols < N masks partial block
    for off in range(0, N, BLOCK_SIZE):
        cols = off + ct.arange(BLOCK_SIZE, dtype=ct.int32)
        w = ct.gather(W, cols, padding_value=0)
        w = w + WEIGHT_SHIFT
        b = ct.gather(B, cols, padding_value=0)
        x = ct.gather(X, (row_tile, cols), padding_value=0)
        x = ct.astype(x, ct.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        y = ct.astype(y, X.dtype)
        ct.scatter(Y, (row_tile, cols), y)


@ct.kernel
def _persistent_layer_norm_fwd_kernel(
    X,
    Y,
    W,
    B,
    Mean,
    Rstd,
    N: ct.Constant[int],
    D: ct.Constant[int],
    EPS: ct.Constant[float],
    STRIDE_X: ct.Constant[int],
    STRIDE_Y: ct.Constant[int],
    IS_SWISH: ct.Constant[int],
    TRAINING: ct.Constant[int],
    BLOCK_N: ct.Constant[int],
    BLOCK_D: ct.Constant[int],
    COMPUTE_MEAN_AND_RSTD: ct.Constant[int],
    NUM_SMS: ct.Constant[int],
):
    """Persistent layer norm forward kernel with cuTile."""
    pid = ct.bid(0)
    upper_bound = ct.cdiv(N, BLOCK_N)

    # TMA handles padding (defaults to 0) automatically when BLOCK_D > D
    w = ct.load(W, index=(0,), shape=(BLOCK_D,), padding_mode=PAD_ZERO)
    b = ct.load(B, index=(0,), shape=(BLOCK_D,), padding_mode=PAD_ZERO)

    w = ct.astype(w, ct.float32)
    b = ct.astype(b, ct.float32)

    for current_pid in range(pid, upper_bound, NUM_SMS):
        row_offset = current_pid * BLOCK_N
        rows = row_offset + ct.arange(BLOCK_N, dtype=ct.int32)

        x_tile = ct.load(X, index=(current_pid, 0), shape=(BLOCK_N, BLOCK_D), padding_mode=PAD_ZERO, latency=4)
        x = ct.astype(x_tile, ct.float32)

        if COMPUTE_MEAN_AND_RSTD:
            x_squared = x * x
            avg_square = ct.sum(x_squared, axis=1) / D
            mean = ct.sum(x, axis=1) / D
            var = avg_square - mean * mean
            rstd = ct.rsqrt(var + EPS)
            if TRAINING:
                ct.store(Mean, index=(current_pid,), tile=mean, allow_tma=False)
                ct.store(Rstd, index=(current_pid,), tile=rstd, allow_tma=False)
        else:
            mean = ct.gather(Mean, rows)
            rstd = ct.gather(Rstd, rows)

        if BLOCK_N != 1:
            mean = mean[:, None]
            rstd = rstd[:, None]

        # Normalize and apply linear transformation
        x_hat = (x - mean) * rstd
        w_broadcasted = w[None, :]
        b_broadcasted = b[None, :]
        y = x_hat * w_broadcasted + b_broadcasted

        if IS_SWISH:
            y = ct.sigmoid(y) * x
        y = ct.astype(y, ct.bfloat16)
        ct.store(Y, index=(current_pid, 0), tile=y, allow_tma=False)


def _switch_to_contiguous_if_needed(x: torch.Tensor) -> torch.Tensor:
    """Switch tensor to contiguous layout if needed."""
    if x.stride(-1) == 1:
        return x
    return x.contiguous()


class _LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps, weight_shift=0.0):
        # allocate output
        y = torch.empty_like(x)
        # reshape input data into 2D tensor
        x_arg = x.reshape(-1, x.shape[-1])
        M, N = x_arg.shape
        mean = torch.empty((M,), dtype=torch.float32, device="cuda")
        rstd = torch.empty((M,), dtype=torch.float32, device="cuda")
        # Less than 64KB per feature: enqueue fused kernel
        MAX_FUSED_SIZE = 65536 // x.element_size()
        # Largest power-of-2 <= N so partial last block is handled by kernel masking (e.g. N=9 -> BLOCK_SIZE=8).
        BLOCK_SIZE = min(MAX_FUSED_SIZE, 1 << (N.bit_length() - 1)) if N >= 1 else 1
        if N > MAX_FUSED_SIZE:
            raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
        # heuristics for number of warps
        num_warps = min(max(BLOCK_SIZE // 256, 1), 8)

        # Pass X, Y as 2D (M, N) so gather/scatter bounds (row < M, cols < N) mask partial block
        # (e.g. N=9, BLOCK_SIZE=8) without writing into the next row.
        y_arg = y.reshape(-1, y.shape[-1])
        grid = (M,)
        ct.launch(
            torch.cuda.current_stream(),
            grid,
            _layer_norm_fwd_kernel,
            (
                x_arg,
                y_arg,
                weight,
                bias,
                mean,
                rstd,
                N,
                eps,
                weight_shift,
                BLOCK_SIZE,
            ),
        )
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        ctx.BLOCK_SIZE = BLOCK_SIZE
        ctx.num_warps = num_warps
        ctx.eps = eps
        ctx.weight_shift = weight_shift
        return y

    @staticmethod
    def backward(ctx, dy):
        raise NotImplementedError("LayerNorm backward is not implemented for this backend")


def _persistent_layer_norm_autotune_base(
    stream,
    x,
    y,
    weight,
    bias,
    mean,
    rstd,
    N,
    D,
    eps,
    stride_x,
    stride_y,
    IS_SWISH,
    TRAINING,
    BLOCK_D,
    COMPUTE_MEAN_AND_RSTD,
):
    """
    Autotuned kernel launch for persistent layer norm.
    """
    NUM_SM = torch.cuda.get_device_properties(x.device).multi_processor_count

    # Prune configs based on register limits
    all_configs = list(_persistent_layer_norm_autotune_configs())
    pruned_configs = _persistent_layer_norm_early_config_prune(all_configs, N, D, BLOCK_D)

    # If all configs pruned, use default
    if not pruned_configs:
        pruned_configs = [SimpleNamespace(**_get_default_persistent_layer_norm_configs(BLOCK_D))]

    def search_space():
        for cfg in pruned_configs:
            yield cfg

    def args_fn(cfg):
        BLOCK_N = cfg.BLOCK_N
        num_row_blocks = (N + BLOCK_N - 1) // BLOCK_N
        grid_size = min(NUM_SM, num_row_blocks)
        return (
            x,
            y,
            weight,
            bias,
            mean,
            rstd,
            N,
            D,
            eps,
            stride_x,
            stride_y,
            IS_SWISH,
            TRAINING,
            BLOCK_N,
            BLOCK_D,
            COMPUTE_MEAN_AND_RSTD,
            grid_size,  # NUM_SMS
        )

    def grid_fn(cfg):
        BLOCK_N = cfg.BLOCK_N
        num_row_blocks = (N + BLOCK_N - 1) // BLOCK_N
        grid_size = min(NUM_SM, num_row_blocks)
        return (grid_size, 1, 1)

    cache_key = (N, D, BLOCK_D, IS_SWISH, TRAINING, COMPUTE_MEAN_AND_RSTD, x.dtype, str(x.device))
    if cache_key not in _layer_norm_legacy_tune_cache:
        with ct.compiler_timeout(5):
            result = exhaustive_search(
                pruned_configs,
                stream,
                grid_fn,
                _persistent_layer_norm_fwd_kernel,
                args_fn,
                lambda cfg: {"num_ctas": cfg.num_ctas, "num_worker_warps": cfg.num_worker_warps},
            )
        best_cfg = result.best.config
        _layer_norm_legacy_tune_cache[cache_key] = (
            best_cfg,
            _persistent_layer_norm_fwd_kernel.replace_hints(
                num_ctas=best_cfg.num_ctas, num_worker_warps=best_cfg.num_worker_warps
            ),
        )
    best_cfg, tuned_kernel = _layer_norm_legacy_tune_cache[cache_key]
    ct.launch(stream, grid_fn(best_cfg), tuned_kernel, args_fn(best_cfg))


def _cutile_persistent_layer_norm_fwd(
    x: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor,
    eps: float,
    mean: torch.Tensor = None,
    rstd: torch.Tensor = None,
):
    """
    Persistent layer norm forward pass with cuTile and autotune support.

    Args:
        x: Input tensor of shape (N, D)
        weight: Weight tensor of shape (D,)
        bias: Bias tensor of shape (D,)
        eps: Epsilon for numerical stability
        mean: Optional pre-computed mean tensor
        rstd: Optional pre-computed reciprocal std tensor

    Returns:
        Tuple of (output, mean, rstd, BLOCK_D, num_warps)
    """
    assert x.dim() == 2, f"x.dim() == {x.dim()}, expected 2"
    x = _switch_to_contiguous_if_needed(x)
    N, D = x.shape
    assert bias is not None and weight is not None
    assert weight.dim() == 1
    assert bias.dim() == 1
    assert weight.numel() == D
    assert bias.numel() == D

    y = torch.empty_like(x)
    compute_mean_and_rstd = mean is None or rstd is None
    if mean is None:
        mean = torch.empty((N,), dtype=torch.float32, device=x.device)
    if rstd is None:
        rstd = torch.empty((N,), dtype=torch.float32, device=x.device)

    # Calculate block sizes
    BLOCK_D = next_power_of_2(D)

    enable_autotune = is_autotune_enabled()

    if enable_autotune:
        _persistent_layer_norm_autotune_base(
            torch.cuda.current_stream(),
            x,
            y,
            weight,
            bias,
            mean,
            rstd,
            N,
            D,
            eps,
            x.stride(0),
            y.stride(0),
            0,  # IS_SWISH
            1,  # TRAINING
            BLOCK_D,
            1 if compute_mean_and_rstd else 0,
        )
    else:
        # Use fixed default configs
        configs = _get_default_persistent_layer_norm_configs(BLOCK_D)
        BLOCK_N = configs["BLOCK_N"]
        NUM_SMS = torch.cuda.get_device_properties("cuda").multi_processor_count

        num_row_blocks = (N + BLOCK_N - 1) // BLOCK_N
        grid_size = min(NUM_SMS, num_row_blocks)
        grid = (grid_size, 1, 1)

        default_kernel = _persistent_layer_norm_fwd_kernel.replace_hints(
            num_ctas=configs["num_ctas"], num_worker_warps=configs["num_worker_warps"]
        )
        ct.launch(
            torch.cuda.current_stream(),
            grid,
            default_kernel,
            (
                x,
                y,
                weight,
                bias,
                mean,
                rstd,
                N,
                D,
                eps,
                x.stride(0),
                y.stride(0),
                0,  # IS_SWISH
                1,  # TRAINING
                BLOCK_N,
                BLOCK_D,
                1 if compute_mean_and_rstd else 0,
                grid_size,  # NUM_SMS
            ),
        )

    num_warps = 8
    return y, mean, rstd, BLOCK_D, num_warps


@register_impl("persistent_layer_norm", backend="cutile")
def persistent_layer_norm(
    input: torch.Tensor,
    normalized_shape,
    weight: torch.Tensor,
    bias: torch.Tensor,
    eps: float,
    mean: torch.Tensor = None,
    rstd: torch.Tensor = None,
    **kwargs,
):
    r"""
    Returns the persistent LayerNorm of input with cuTile.

    This is an optimized implementation using persistent kernel pattern.

    Args:
        input: Tensor of shape (N, D)
        normalized_shape: Unused (for API compatibility)
        weight: Tensor of shape (D,)
        bias: Tensor of shape (D,)
        eps: Epsilon for numerical stability
        mean: Optional pre-computed mean tensor
        rstd: Optional pre-computed reciprocal std tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        Tuple of (output, mean, rstd, BLOCK_D, num_warps)
    """
    # Reshape input to 2D if needed
    original_shape = input.shape
    if input.dim() != 2:
        input = input.reshape(-1, input.shape[-1])

    y, mean_out, rstd_out, block_d, num_warps = _cutile_persistent_layer_norm_fwd(input, weight, bias, eps, mean, rstd)

    # Reshape output back to original shape if needed
    if len(original_shape) != 2:
        y = y.reshape(original_shape)

    return y, mean_out, rstd_out, block_d, num_warps


@register_impl("layer_norm_legacy", backend="cutile")
def layer_norm_legacy(input, normalized_shape, weight, bias, eps, weight_shift=0.0, **kwargs):
    r"""
    Returns the LayerNorm of input along dimension N

    Args:
        input: Tensor of shape (M, N)
        normalized_shape: Unused
        weight: Tensor of shape (N,)
        bias: Tensor of shape (N,)
        eps: small scaler to be added to
            variance calculation prior to division.
        weight_shift: float value to be added to the weight
        **kwargs: Additional arguments for backend-specific configurations
    """
    return _LayerNorm.apply(input, normalized_shape, weight, bias, eps, weight_shift)
