#!/usr/bin/env python3
"""libpykc in one process against fresh `pykc compile` processes (issue 17).

Builds bench/capi/capi_bench.c against build/lib/libpykc.so, then, on one
one-kernel file: N cold compiles (no cache) and N cache hits through the C
API in one process, against N fresh `pykc compile --no-cache` processes and
N fresh `pykc compile` hits; and `/bin/true` N times as the process floor.

    python3 bench/capi/run_capi_bench.py [--n 1000] [--file bench/compile/kernels/k01_saxpy.py]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def processes(argv, n, env=None):
    times = []
    start = time.perf_counter()
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append((time.perf_counter() - t) * 1e3)
    return (time.perf_counter() - start) * 1e3, statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--file", default=os.path.join(ROOT, "bench/compile/kernels/k01_saxpy.py"))
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--arch", default="sm_90")
    args = p.parse_args()
    pykc = os.path.join(args.build, "bin", "pykc")
    lib = os.path.join(args.build, "lib")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "capi_bench")
        subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include"), os.path.join(ROOT, "bench/capi/capi_bench.c"),
                        "-L", lib, "-lpykc", "-Wl,-rpath," + lib, "-o", exe], check=True)
        rows = []
        for mode in ("cold", "hit"):
            out = subprocess.run([exe, mode, str(args.n), args.file, args.arch], check=True,
                                 capture_output=True, text=True).stdout.split()
            rows.append((f"C API, one process, {mode}", float(out[2]), float(out[3])))
        out_dir = os.path.join(tmp, "out")
        rows.append(("pykc compile --no-cache processes",
                     *processes([pykc, "compile", args.file, "--arch", args.arch, "--no-cache", "-o", out_dir], args.n)))
        env = dict(os.environ, PYKC_CACHE_DIR=os.path.join(tmp, "cache"))
        subprocess.run([pykc, "compile", args.file, "--arch", args.arch, "-o", out_dir], check=True, env=env)
        rows.append(("pykc compile processes, hit",
                     *processes([pykc, "compile", args.file, "--arch", args.arch, "-o", out_dir], args.n, env)))
        rows.append(("/bin/true processes", *processes(["/bin/true"], args.n)))
    print(f"{args.n} compiles of {os.path.relpath(args.file, ROOT)} for {args.arch}")
    print(f"{'':40s} {'total s':>9s} {'median ms':>10s}")
    for name, total, median in rows:
        print(f"{name:40s} {total / 1e3:9.2f} {median:10.3f}")


if __name__ == "__main__":
    sys.exit(main())
