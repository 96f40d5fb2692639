#!/usr/bin/env python3
"""bf16 matmul of pykc's tile kernels against cuBLAS (PyTorch) and Triton (issue 9).

Runs on the GPU machine, on the output of
    pykc compile tests/gpu/kernels/tile_mma_kernels.py --arch sm_90 -o ROOT/tile_mma_kernels
(what tests/gpu/build_artifacts.sh ROOT writes), or of bench/gpu/tile_matmul_kernels.py
compiled per tile shape into ROOT/mm_<tm>x<tn>x<tk> (`--const tm=.. --const tn=.. --const tk=..`):

    python3 bench/gpu/tile_matmul.py ROOT [--size 4096] [--reps 10] [--batch 10] [--rounds 3] [--folders a,b]

C = A @ B with A, B, C bfloat16 (float32 accumulation), M = N = K = --size. Each
implementation's result is checked against cuBLAS's before timing. Times are medians of
--reps batches of --batch launches queued back to back (CUDA events) after warm-up,
in --rounds interleaved rounds (median of the rounds); prints JSON with TFLOP/s and the ratio to
cuBLAS. Triton's kernel is the one of its matmul tutorial (grouped ordering, autotuned
over the tutorial's CUDA configurations).
"""
import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import torch  # noqa: E402

import pykc  # noqa: E402
from event_timing import timed  # noqa: E402


def triton_matmul():
    import triton
    import triton.language as tl

    configs = [
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8}, num_stages=3, num_warps=8),
    ]

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
               BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
        pid = tl.program_id(axis=0)
        num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
        num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
        num_pid_in_group = GROUP_SIZE_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
        offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
        offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
        offs_k = tl.arange(0, BLOCK_SIZE_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
            a_ptrs += BLOCK_SIZE_K * stride_ak
            b_ptrs += BLOCK_SIZE_K * stride_bk
        c = accumulator.to(tl.bfloat16)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, c, mask=c_mask)

    def run(a, b, c):
        M, K = a.shape
        _, N = b.shape
        grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)
        kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1))
    return run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=10, help="batches per round")
    ap.add_argument("--batch", type=int, default=10, help="launches per timed batch")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds over all implementations (interleaved; the median is reported)")
    ap.add_argument("--folders", default="tile_mma_kernels",
                    help="comma-separated compiled folders under ROOT holding matmul_sample")
    a = ap.parse_args()
    n = a.size
    torch.manual_seed(0)
    A = torch.randn(n, n, device="cuda").to(torch.bfloat16)
    B = torch.randn(n, n, device="cuda").to(torch.bfloat16)
    flops = 2.0 * n * n * n
    ref = torch.matmul(A, B)
    results = []
    timers = []

    def record(name, fn, out, **extra):
        out.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        err = ((out.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
        ok = err < 2e-2
        entry = {"impl": name, "max_rel_err": err, "correct": ok, **extra}
        if ok:
            for _ in range(3):
                fn()
            timers.append((entry, fn))
        results.append(entry)

    C = torch.empty_like(ref)
    record("cublas (torch.matmul)", lambda: torch.matmul(A, B, out=C), C)
    for folder in a.folders.split(","):
        mod = pykc.load(os.path.join(a.root, folder))
        # Folders named mm_<tm>x<tn>x<tk>[_label] hold --const variants; others the defaults.
        tm, tn, tk = 128, 128, 32
        if folder.startswith("mm_"):
            tm, tn, tk = (int(x) for x in folder[3:].split("_")[0].split("x"))
        grid = (((n + tm - 1) // tm) * ((n + tn - 1) // tn),)
        stream = torch.cuda.current_stream()
        record(f"pykc {folder} ({tm}x{tn}x{tk})",
               lambda k=mod["matmul_sample"], g=grid, c=(tm, tn, tk): pykc.launch(stream, g, k, (A, B, C, *c)), C)
    try:
        tr = triton_matmul()
        record("triton tutorial (autotuned)", lambda: tr(A, B, C), C)
    except Exception as e:  # noqa: BLE001
        results.append({"impl": "triton tutorial", "error": f"{type(e).__name__}: {e}"})
    # Rounds over every implementation in turn, so that clock and temperature drift
    # reach all of them alike; each round's figure is a median over --reps batches.
    for _ in range(a.rounds):
        for entry, fn in timers:
            entry.setdefault("round_seconds", []).append(timed(fn, a.reps, a.batch))
    for entry, _ in timers:
        if "round_seconds" not in entry:  # --rounds 0: checked, not timed (for profilers)
            continue
        s = statistics.median(entry["round_seconds"])
        entry.update(seconds=s, tflops=round(flops / s / 1e12, 1),
                     round_tflops=[round(flops / x / 1e12, 1) for x in entry.pop("round_seconds")])
    base = next((r for r in results if r["impl"].startswith("cublas") and "seconds" in r), None)
    for r in results:
        if base and "seconds" in r:
            r["of_cublas"] = round(base["seconds"] / r["seconds"], 3)
    print(json.dumps({"size": n, "device": torch.cuda.get_device_name(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
