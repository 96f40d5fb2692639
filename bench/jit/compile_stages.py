"""Where a JIT miss and a disk hit spend their time inside libpykc, in one process:
library load and session, the first compile of the process (one-time set-up included),
a second kernel's compile (the per-kernel cost), a disk hit of each, a hit in a second
session, and the CLI's PTX-only and full compiles of the same file with ptxas alone on
its PTX for comparison.

    PYTHONPATH=python python3 bench/jit/compile_stages.py [--arch sm_90] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

KERNEL = '''
from numba import cuda


@cuda.jit
def {name}(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += {value}
'''


def ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1e3, 3)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default=os.environ.get("PYKC_ARCH", "sm_90"))
    ap.add_argument("--json")
    ap.add_argument("--prepare", action="store_true",
                    help="call Compiler.prepare before the first compile (what cuda.jit "
                         "starts on a thread of its own)")
    ap.add_argument("--pykc", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                   "build", "bin", "pykc"))
    ns = ap.parse_args()
    out: dict = {}
    folder = tempfile.mkdtemp()
    cache = os.path.join(folder, "cache")
    os.environ["PYKC_CACHE_DIR"] = cache
    files = []
    for i, name in enumerate(["first", "second", "third"]):
        path = os.path.join(folder, f"{name}.py")
        with open(path, "w") as f:
            f.write(KERNEL.format(name=name, value=i + 1))
        files.append((name, path))
    t0 = time.perf_counter()
    from pykc._compiler import Compiler
    out["import"] = ms(t0)
    t0 = time.perf_counter()
    c = Compiler(cache_dir=cache)
    out["library load and session"] = ms(t0)
    if ns.prepare:
        t0 = time.perf_counter()
        out["prepare"] = (c.prepare(ns.arch), ms(t0))
    for name, path in files:
        t0 = time.perf_counter()
        c.compile(path, kernel=name, sigs=[f"{name}(float32[::1])"], archs=[ns.arch])
        out[f"miss {name}"] = ms(t0)
    for name, path in files:
        t0 = time.perf_counter()
        r = c.compile(path, kernel=name, sigs=[f"{name}(float32[::1])"], archs=[ns.arch])
        out[f"hit {name}"] = ms(t0)
        assert r.cache_hits[ns.arch], f"{name}: the second compile was not a cache hit"
    c2 = Compiler(cache_dir=cache)
    t0 = time.perf_counter()
    c2.compile(files[0][1], kernel="first", sigs=["first(float32[::1])"], archs=[ns.arch])
    out["hit in a second session"] = ms(t0)
    if os.path.exists(ns.pykc):
        for phase in ("check", "ptx", "cubin"):
            times = []
            for _ in range(5):
                o = os.path.join(folder, f"cli-{phase}")
                shutil.rmtree(o, ignore_errors=True)
                t0 = time.perf_counter()
                subprocess.run([ns.pykc, "compile", files[1][1], "--sig",
                                "second(float32[::1])", "--arch", ns.arch, "--no-cache",
                                f"--phase={phase}", "-o", o], check=True,
                               capture_output=True)
                times.append(ms(t0))
            out[f"CLI --phase={phase} (median of 5)"] = statistics.median(times)
        ptx = [os.path.join(folder, "cli-ptx", f) for f in os.listdir(os.path.join(folder, "cli-ptx"))
               if f.endswith(".ptx")]
        ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
        if ptx and os.path.exists(ptxas):
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                subprocess.run([ptxas, f"-arch={ns.arch}", "-O3", ptx[0], "-o",
                                os.path.join(folder, "x.cubin")], check=True)
                times.append(ms(t0))
            out["ptxas alone (median of 5)"] = statistics.median(times)
        t0 = time.perf_counter()
        subprocess.run(["/bin/true"])
        out["/bin/true"] = ms(t0)
    shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(out, indent=1))
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
