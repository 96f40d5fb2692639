#!/usr/bin/env python3
"""Fused multi-head attention (forward, fp16) of pykc's tile kernel against PyTorch's
scaled_dot_product_attention on its flash backend (issue 9).

The kernel is tests/gpu/kernels/tile_attention_kernels.py (written as cuTile's
AttentionFMHA sample writes it), compiled on any machine with

    pykc compile tests/gpu/kernels/tile_attention_kernels.py --arch sm_90a -o ROOT/attn_bench \\
        --sig 'attn_fwd(float16[:,:,:,::1],float16[:,:,:,::1],float16[:,:,:,::1],float16[:,:,:,::1],float32,int32)' \\
        --const Dqk=64 --const Dqk=128 --const Dv=64 --const Dv=128 --const H=16 \\
        --const TILE_M=128 --const TILE_N=64 --const GROUP=1 --const CAUSAL=0 --const CAUSAL=1 --const EVEN_K=1

then on the GPU machine:

    python3 bench/gpu/tile_attention.py ROOT [--folder attn_bench] [--batch-size 8] [--heads 16]
        [--seqs 1024,4096] [--dims 64,128] [--causal 0,1] [--reps 10] [--batch 10] [--rounds 3]

Q, K, V and Out are (batch, heads, seq, d) float16. Every configuration is checked against
SDPA (and both against a float32 reference of the first batch and head) before timing.
Times are medians of --reps batches of --batch launches queued back to back between CUDA
events, in --rounds interleaved rounds (median of the rounds). Prints JSON with TFLOP/s
(4 * b * h * s^2 * d, halved for causal) and pykc's speed as a fraction of SDPA's.
"""
import argparse
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import pykc  # noqa: E402
from event_timing import timed  # noqa: E402

TILE_M, TILE_N = 128, 64


def sdpa_flash(q, k, v, causal):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--folder", default="attn_bench")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--seqs", default="1024,4096")
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--causal", default="0,1")
    ap.add_argument("--reps", type=int, default=10, help="batches per round")
    ap.add_argument("--batch", type=int, default=10, help="launches per timed batch")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    mod = pykc.load(os.path.join(a.root, a.folder))
    kernel = mod["attn_fwd"]
    stream = torch.cuda.current_stream()
    torch.manual_seed(0)
    b, h = a.batch_size, a.heads
    results, timers = [], []
    for s in (int(x) for x in a.seqs.split(",")):
        for d in (int(x) for x in a.dims.split(",")):
            q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.float16) for _ in range(3))
            for causal in (bool(int(x)) for x in a.causal.split(",")):
                config = {"batch": b, "heads": h, "seq": s, "d": d, "causal": causal}
                flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
                ref = sdpa_flash(q, k, v, causal)
                # float32 reference of the first (batch, head).
                s32 = (q[0, 0].float() @ k[0, 0].float().T) / math.sqrt(d)
                if causal:
                    s32 = s32.masked_fill(torch.ones(s, s, device="cuda").triu(1).bool(), float("-inf"))
                want = torch.softmax(s32, -1) @ v[0, 0].float()
                out = torch.full_like(q, float("nan"))
                grid = ((s + TILE_M - 1) // TILE_M, b * h)
                args = (q, k, v, out, 1.0 / math.sqrt(d), 0, d, d, h, TILE_M, TILE_N, 1, causal, True)

                def run_pykc(g=grid, args=args):
                    pykc.launch(stream, g, kernel, args)

                def run_sdpa(q=q, k=k, v=v, causal=causal):
                    sdpa_flash(q, k, v, causal)

                entry = dict(config)
                try:
                    run_pykc()
                    torch.cuda.synchronize()
                    err = (out.float() - ref.float()).abs().max().item()
                    err32 = (out[0, 0].float() - want).abs().max().item()
                    sdpa32 = (ref[0, 0].float() - want).abs().max().item()
                    entry.update(max_err_vs_sdpa=err, max_err_vs_f32=err32, sdpa_err_vs_f32=sdpa32,
                                 correct=bool(err < 2e-2 and math.isfinite(err)))
                except Exception as e:  # noqa: BLE001
                    entry.update(error=f"{type(e).__name__}: {e}", correct=False)
                results.append(entry)
                sdpa_entry = {"impl": "sdpa flash"}
                timers.append((sdpa_entry, run_sdpa, flops))
                entry["sdpa"] = sdpa_entry
                if entry["correct"]:
                    pykc_entry = {"impl": "pykc"}
                    timers.append((pykc_entry, run_pykc, flops))
                    entry["pykc"] = pykc_entry
                for fn in (run_sdpa, run_pykc if entry["correct"] else None):
                    if fn is not None:
                        for _ in range(3):
                            fn()
    for _ in range(a.rounds):
        for e, fn, _ in timers:
            e.setdefault("round_seconds", []).append(timed(fn, a.reps, a.batch))
    for e, _, flops in timers:
        if "round_seconds" not in e:
            continue
        sec = statistics.median(e["round_seconds"])
        e.update(seconds=sec, tflops=round(flops / sec / 1e12, 1),
                 round_tflops=[round(flops / x / 1e12, 1) for x in e.pop("round_seconds")])
    for r in results:
        if "seconds" in r.get("pykc", {}) and "seconds" in r["sdpa"]:
            r["of_sdpa"] = round(r["sdpa"]["seconds"] / r["pykc"]["seconds"], 3)
    print(json.dumps({"device": torch.cuda.get_device_name(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
