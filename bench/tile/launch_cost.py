#!/usr/bin/env python3
"""Host time of one `pykc.tile` launch (ct.launch of a compiled tile kernel) with PyTorch
tensors, per dtype: the Python side's argument handling and cuLaunchKernel, timed over
back-to-back launches of a tiny kernel (the GPU is never the bottleneck). Skips without
torch or a GPU.

    PYTHONPATH=python python3 bench/tile/launch_cost.py [--launches 2000] [--rounds 5]
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("launch_cost: skipped (no torch)")
        return 0
    if not torch.cuda.is_available():
        print("launch_cost: skipped (no GPU)")
        return 0
    import pykc.tile as ct
    import rowwise_kernels as rk

    stream = torch.cuda.current_stream()
    for name in ("float32", "float16", "bfloat16"):
        x = torch.randn(64, 128, device="cuda").to(getattr(torch, name))
        y = torch.empty_like(x)
        ct.launch(stream, (64,), rk.softmax, (x, y, 1, 128))  # compiles, then checks the launch path
        torch.cuda.synchronize()
        per = []
        for _ in range(a.rounds):
            t0 = time.perf_counter()
            for _ in range(a.launches):
                ct.launch(stream, (64,), rk.softmax, (x, y, 1, 128))
            per.append((time.perf_counter() - t0) / a.launches * 1e6)
            torch.cuda.synchronize()
        print(f"launch {name:8}: {min(per):6.1f} us  (min of {a.rounds} rounds of {a.launches}; "
              f"median {sorted(per)[len(per) // 2]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
