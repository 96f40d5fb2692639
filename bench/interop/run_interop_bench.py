#!/usr/bin/env python3
"""Times a kernel calling a CUDA C++ device function against the same function written in
Python (docs/INTEROP.md, "Cost of the call"). Needs a GPU, CuPy and the compiled folders
bench/interop/prepare.sh writes (ROOT/ptx: the C++ linked as PTX; ROOT/lto: with --lto;
ROOT/clang, if present: the clang-19 inlining experiment of docs/INTEROP.md):

    python3 bench/interop/run_interop_bench.py .gpu/interop [--n 16777216] [--runs 30]

Per variant and `reps` (calls per element): the median GPU time of one launch over --runs
timed launches (CUDA events around a batch of --batch launches, after warm-ups), the
extra time per call against the Python version, and a check of the outputs against NumPy.
Prints a table and, with --out DIR, writes interop_bench.json there.
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def poly_ref(x, reps):
    v = x.astype(np.float64)
    for _ in range(reps):
        v = ((0.5 * v) * v - 0.25) * v + 0.125
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("--n", type=int, default=1 << 24, help="elements (default 2^24)")
    ap.add_argument("--reps", default="1,16,64,256", help="calls per element, comma separated")
    ap.add_argument("--runs", type=int, default=30, help="timed batches (median)")
    ap.add_argument("--batch", type=int, default=5, help="launches per timed batch")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--out", default=None, help="folder for interop_bench.json")
    a = ap.parse_args()

    import cupy as cp
    import pykc

    variants = {}
    for folder in ("ptx", "lto", "clang"):
        path = os.path.join(a.root, folder)
        if os.path.exists(os.path.join(path, "manifest.json")):
            variants[folder] = pykc.load(path, backend="cupy")
    if not variants:
        sys.exit(f"no compiled folders under {a.root} (run bench/interop/prepare.sh)")
    base = next(iter(variants.values()))
    kernels = [("python", base.via_python)]
    for v, m in variants.items():
        kernels += [(f"c++ {v}", m.via_cxx), (f"c++ {v} abi=c", m.via_cxx_c)]

    n, tpb = a.n, 256
    grid = (n + tpb - 1) // tpb
    rng = np.random.default_rng()
    x_host = rng.uniform(-1, 1, n).astype(np.float32)
    x = cp.asarray(x_host)
    out = cp.empty_like(x)
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    stream = cp.cuda.get_current_stream()
    rows = []
    for reps in [int(r) for r in a.reps.split(",")]:
        want = poly_ref(x_host[:4096], reps)
        times = {}
        for name, kernel in kernels:
            out.fill(cp.nan)
            kernel[grid, tpb, stream](x, out, np.int32(reps))
            got = cp.asnumpy(out[:4096]).astype(np.float64)
            err = float(np.max(np.abs(got - want)))
            if not np.all(np.isfinite(got)) or err > 1e-4:
                sys.exit(f"{name} reps={reps}: wrong result (max abs err {err:.2e})")
            for _ in range(a.warmup):
                kernel[grid, tpb, stream](x, out, np.int32(reps))
            ms = []
            for _ in range(a.runs):
                e0.record(stream)
                for _ in range(a.batch):
                    kernel[grid, tpb, stream](x, out, np.int32(reps))
                e1.record(stream)
                e1.synchronize()
                ms.append(cp.cuda.get_elapsed_time(e0, e1) / a.batch)
            times[name] = float(np.median(ms))
        py = times["python"]
        for name, t in times.items():
            extra_ns = (t - py) * 1e6 / (n * reps) if reps else 0.0
            rows.append({"variant": name, "reps": reps, "median_ms": t, "vs_python": t / py,
                         "extra_ns_per_call_per_element": extra_ns})
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"{dev}: n = {n}, {tpb} threads per block, medians of {a.runs} batches of {a.batch}")
    print(f"{'variant':<16} {'reps':>5} {'ms':>10} {'vs python':>10} {'extra ns/call/elem':>19}")
    for r in rows:
        print(f"{r['variant']:<16} {r['reps']:>5} {r['median_ms']:>10.4f} {r['vs_python']:>10.2f} "
              f"{r['extra_ns_per_call_per_element']:>19.5f}")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "interop_bench.json"), "w") as f:
            json.dump({"device": dev, "n": n, "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
