#!/usr/bin/env python3
"""On a GPU host: a compile with the GPU visible costs what one without a GPU does.

pykc keeps nvJitLink and NVRTC from initialising the CUDA driver
(docs/compile.md, "No CUDA driver in a compile"). This times `pykc compile`
from fresh processes, alternating, with the GPU visible, with
CUDA_VISIBLE_DEVICES= and, as the control that shows what is avoided, with
PYKC_CUDA_DRIVER=visible; it fails unless the visible-GPU median is within
10 % of the CUDA_VISIBLE_DEVICES= one, and checks the cubins are identical.
Without a GPU (no nvidia-smi) it skips (exit 77).

    python3 tests/gpu/compile_without_driver.py --pykc PYKC [--file examples/saxpy.py] [--runs 11]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pykc", required=True)
    parser.add_argument("--file", default=os.path.join(os.path.dirname(__file__), "..", "..", "examples", "saxpy.py"))
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    if shutil.which("nvidia-smi") is None or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0:
        print("SKIP: no GPU on this machine (this test is for GPU hosts)")
        return 77
    base = {k: v for k, v in os.environ.items() if k not in ("CUDA_VISIBLE_DEVICES", "PYKC_CUDA_DRIVER")}
    modes = {
        "visible": base,
        "CUDA_VISIBLE_DEVICES=": dict(base, CUDA_VISIBLE_DEVICES=""),
        "PYKC_CUDA_DRIVER=visible": dict(base, PYKC_CUDA_DRIVER="visible"),
    }
    times = {m: [] for m in modes}
    cubins = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.runs + 1):
            for m, env in modes.items():
                out = os.path.join(tmp, m.replace("=", "_"))
                t = time.perf_counter()
                p = subprocess.run([args.pykc, "compile", args.file, "--arch", args.arch, "--no-cache", "-o", out],
                                   env=env, capture_output=True, text=True)
                dt = (time.perf_counter() - t) * 1e3
                if p.returncode != 0:
                    print(f"FAIL: pykc compile ({m}) exited {p.returncode}:\n{p.stderr}")
                    return 1
                if r > 0:  # the first round warms the page cache
                    times[m].append(dt)
                stem = os.path.splitext(os.path.basename(args.file))[0]
                cubins[m] = open(os.path.join(out, f"{stem}.{args.arch}.cubin"), "rb").read()
    med = {m: statistics.median(v) for m, v in times.items()}
    for m, v in times.items():
        print(f"{m:26s} median {med[m]:7.1f} ms  min {min(v):7.1f}  max {max(v):7.1f}  ({len(v)} runs)")
    ok = True
    if len(set(cubins.values())) != 1:
        print("FAIL: the cubins differ between the modes")
        ok = False
    ratio = med["visible"] / med["CUDA_VISIBLE_DEVICES="]
    print(f"visible / CUDA_VISIBLE_DEVICES= = {ratio:.3f} (limit 1.10); "
          f"driver initialisation avoided: {med['PYKC_CUDA_DRIVER=visible'] - med['visible']:.1f} ms")
    if ratio > 1.10:
        print("FAIL: a compile with the GPU visible is more than 10 % slower")
        ok = False
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
