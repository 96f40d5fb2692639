#!/usr/bin/env python3
"""Row-wise tile kernels with several rows per block (issue 23) against the copy bandwidth.

Times pykc's compiled softmax, layer norm and RMS norm, written as cuTile's samples write
them (a (B, N) tile a block, reduced along axis 1 with keepdims and broadcast back), for
B in 1, 2, 4, 8, 16 and N in 128 .. 8192, float32 / float16 / bfloat16, on a
(ROWS, N) matrix. Each kernel's output is checked against a float64 reference first; then
its time (CUDA events, median of repeats of back-to-back launches) gives GB/s (bytes read
+ written) and the fraction of a device-to-device copy's bandwidth measured in the same
run on as many bytes. Skips (exit 0, a line saying why) without torch or a GPU.

    PYTHONPATH=python python3 bench/tile/rowwise.py [--rows 65536] [--json OUT] [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

B_VALUES = (1, 2, 4, 8, 16)
N_VALUES = (128, 256, 512, 1024, 2048, 4096, 8192)
DTYPES = ("float32", "float16", "bfloat16")


def timed(torch, fn, reps, batch):
    """Median seconds per launch over `reps` batches of `batch` back-to-back launches."""
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3 / batch)
    return statistics.median(times)


def reference(torch, name, x, w, b, eps):
    x = x.double()
    if name == "softmax":
        return torch.softmax(x, dim=1)
    if name == "layer_norm":
        mean = x.mean(dim=1, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=1, keepdim=True)
        return (x - mean) / torch.sqrt(var + eps) * w.double() + b.double()
    return x * torch.rsqrt((x * x).mean(dim=1, keepdim=True) + eps) * w.double()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=65536)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="B in 1, 4, 16 and N in 128, 1024, 8192")
    ap.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated subset of " + ", ".join(DTYPES))
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("rowwise: skipped (no torch)")
        return 0
    if not torch.cuda.is_available():
        print("rowwise: skipped (no GPU)")
        return 0
    import pykc.tile as ct

    sys.path.insert(0, HERE)
    import rowwise_kernels as rk

    ks = {"softmax": rk.softmax, "layer_norm": rk.layer_norm, "rms_norm": rk.rms_norm}
    stream = torch.cuda.current_stream()
    bs = (1, 4, 16) if a.quick else B_VALUES
    ns = (128, 1024, 8192) if a.quick else N_VALUES
    results, failures = [], []
    print(f"{'kernel':10} {'dtype':8} {'B':>3} {'N':>5} {'ms':>8} {'GB/s':>7} {'copy GB/s':>9} {'of copy':>7}")
    for dtype_name in a.dtypes.split(","):
        dtype = getattr(torch, dtype_name)
        for n in ns:
            gen = torch.Generator(device="cuda").manual_seed(n)
            x = torch.randn(a.rows, n, device="cuda", generator=gen).to(dtype)
            w = (torch.rand(n, device="cuda", generator=gen) + 0.5).to(dtype)
            bias = torch.randn(n, device="cuda", generator=gen).to(dtype)
            y = torch.empty_like(x)
            # A device-to-device copy of the bytes one kernel reads and writes.
            src, dst = torch.empty_like(x), torch.empty_like(x)
            copy_s = timed(torch, lambda: dst.copy_(src), a.reps, a.batch)
            moved = 2 * x.numel() * x.element_size()
            copy_gbs = moved / copy_s / 1e9
            tol = 2e-5 if dtype == torch.float32 else 2e-2
            for name, kern in ks.items():
                for b in bs:
                    grid = (a.rows // b,)
                    eps = 1e-5
                    args = {"softmax": (x, y, b, n), "layer_norm": (x, w, bias, y, eps, b, n),
                            "rms_norm": (x, w, y, eps, b, n)}[name]
                    def launch():
                        ct.launch(stream, grid, kern, args)
                    y.fill_(float("nan"))
                    launch()
                    torch.cuda.synchronize()
                    want = reference(torch, name, x, w, bias, eps)
                    err = (y.double() - want).abs().max().item()
                    scale = max(1.0, want.abs().max().item())
                    ok = err <= tol * scale
                    if not ok:
                        failures.append(f"{name} {dtype_name} B={b} N={n}: max abs err {err:.2e}")
                    s = timed(torch, launch, a.reps, a.batch)
                    gbs = moved / s / 1e9
                    row = {"kernel": name, "dtype": dtype_name, "B": b, "N": n, "rows": a.rows,
                           "ms": s * 1e3, "gbs": gbs, "copy_gbs": copy_gbs, "of_copy": gbs / copy_gbs,
                           "max_abs_err": err, "ok": ok}
                    results.append(row)
                    print(f"{name:10} {dtype_name:8} {b:>3} {n:>5} {s * 1e3:8.4f} {gbs:7.0f} {copy_gbs:9.0f} "
                          f"{gbs / copy_gbs:7.1%}{'' if ok else '  WRONG'}")
            del x, y, src, dst
    below = [r for r in results if r["of_copy"] < 0.9]
    print(f"rowwise: {len(results)} timed, {len(below)} below 90 % of copy bandwidth, "
          f"{len(failures)} wrong")
    for f in failures:
        print("  wrong:", f)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "results": results, "failures": failures}, f,
                      indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
