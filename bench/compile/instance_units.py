#!/usr/bin/env python3
"""Instance units against file units (issue 17, docs/CACHE.md "Instance units").

For one file: the cold cost of populating one entry per kernel instance
(`cache populate --per-instance`) against one entry per file, and whether a
kernel compiled alone gets the same code as inside the file's cubin (its
PTX entry body, with the file build's `$pN` partition suffixes removed, and
its registers/spills from the resources).

    python3 bench/compile/instance_units.py [--pykc build/bin/pykc] [--file bench/compile/kernels/k10_many.py] [--runs 3]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def entry_bodies(ptx):
    out = {}
    for m in re.finditer(r"\.entry (\w+)\((.*?)\n\}\n", ptx, re.S):
        # Partition suffixes and the function number in block labels ($L__BB<n>_) aside.
        out[m.group(1)] = re.sub(r"\$L__BB\d+_", "$L__BB_", re.sub(r"\$p\d+", "", m.group(0)))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pykc", default=os.path.join(ROOT, "build", "bin", "pykc"))
    p.add_argument("--file", default=os.path.join(ROOT, "bench", "compile", "kernels", "k10_many.py"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        times = {"file units": [], "instance units": []}
        for r in range(a.runs):
            for mode, extra in (("file units", []), ("instance units", ["--per-instance"])):
                cache = os.path.join(tmp, f"c{r}{len(extra)}")
                t = time.perf_counter()
                subprocess.run([a.pykc, "cache", "populate", a.file, "--arch", a.arch, "--cache-dir", cache, *extra],
                               check=True, capture_output=True)
                times[mode].append(time.perf_counter() - t)
        out = os.path.join(tmp, "whole")
        subprocess.run([a.pykc, "compile", a.file, "--arch", a.arch, "--no-cache", "-o", out, "-Wno-float64"],
                       check=True, capture_output=True)
        stem = os.path.splitext(os.path.basename(a.file))[0]
        whole = entry_bodies(open(os.path.join(out, f"{stem}.{a.arch}.ptx")).read())
        manifest = json.load(open(os.path.join(out, "manifest.json")))
        names = sorted({k["name"] for k in manifest["kernels"]})
        same, differ = 0, []
        for name in names:
            o = os.path.join(tmp, "k_" + name)
            subprocess.run([a.pykc, "compile", a.file, "--kernel", name, "--arch", a.arch, "--no-cache", "-o", o,
                            "-Wno-float64"], check=True, capture_output=True)
            alone = entry_bodies(open(os.path.join(o, f"{stem}.{a.arch}.ptx")).read())
            for symbol, body in alone.items():
                if whole.get(symbol) == body:
                    same += 1
                else:
                    differ.append(symbol)
    print(f"{os.path.relpath(a.file, ROOT)} for {a.arch}, cold populate, {a.runs} runs (median):")
    for mode, v in times.items():
        print(f"  {mode:15s} {statistics.median(v) * 1e3:8.1f} ms  (min {min(v) * 1e3:.1f})")
    print(f"kernel entries with the same PTX alone as in the file: {same} of {same + len(differ)}"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
