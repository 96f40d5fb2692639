#!/usr/bin/env python3
"""Parse throughput: pykc against CPython's ast.parse over a whole standard library.

Both sides parse the same files (those CPython accepts), each in ONE process, and
each is timed as a whole process (start-up, reading files, parsing), median of
--runs. CPython's in-process parse time (files already read) is reported too, as
the lower bound of what `ast.parse` costs.

    python3 bench/parse_speed.py --pykc build/bin/pykc [--python python3] [--runs 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CPYTHON_INPROC = r"""
import ast, sys, time
paths = open(sys.argv[1]).read().split("\n")
srcs = [open(p, "rb").read() for p in paths]
t = time.perf_counter()
for s in srcs:
    ast.parse(s)
print(time.perf_counter() - t)
"""

CPYTHON_PROCESS = r"""
import ast, sys
for p in open(sys.argv[1]).read().split("\n"):
    with open(p, "rb") as f:
        ast.parse(f.read())
"""

FILTER = r"""
import ast, sys, warnings
warnings.simplefilter("ignore")
ok = []
for p in sys.argv[2:]:
    try:
        with open(p, "rb") as f:
            ast.parse(f.read())
        ok.append(p)
    except Exception:
        pass
open(sys.argv[1], "w").write("\n".join(ok))
"""


def stdlib_dir(python):
    out = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def timed(cmd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit(f"failed ({r.returncode}): {' '.join(cmd[:3])} ...\n{r.stderr.decode()[:2000]}")
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pykc", default="build/bin/pykc")
    ap.add_argument("--python", default="python3")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()

    lib = stdlib_dir(args.python)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(lib) for f in fs if f.endswith(".py"))
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, "files.txt")
        subprocess.run([args.python, "-c", FILTER, listing, *files], check=True)
        accepted = open(listing).read().split("\n")
        size = sum(os.path.getsize(p) for p in accepted)
        pykc_s, _ = timed([args.pykc, "parse", *accepted], args.runs)
        py_proc_s, _ = timed([args.python, "-c", CPYTHON_PROCESS, listing], args.runs)
        inproc = [float(subprocess.run([args.python, "-c", CPYTHON_INPROC, listing], capture_output=True,
                                       text=True, check=True).stdout) for _ in range(args.runs)]
        py_inproc_s = statistics.median(inproc)
        version = subprocess.run([args.python, "--version"], capture_output=True, text=True).stdout.strip()

    res = {
        "python": version, "stdlib": lib, "files": len(accepted), "bytes": size,
        "pykc_process_s": pykc_s, "cpython_process_s": py_proc_s, "cpython_ast_parse_only_s": py_inproc_s,
        "ratio_process": py_proc_s / pykc_s, "ratio_vs_parse_only": py_inproc_s / pykc_s,
        "pykc_mb_per_s": size / pykc_s / 1e6, "runs": args.runs,
    }
    print(f"{version}: {len(accepted)} files, {size / 1e6:.1f} MB (runs: {args.runs}, medians)")
    print(f"  pykc parse, one process:        {pykc_s * 1000:8.0f} ms  ({res['pykc_mb_per_s']:.0f} MB/s)")
    print(f"  CPython ast.parse, one process: {py_proc_s * 1000:8.0f} ms  -> pykc {res['ratio_process']:.1f}x faster")
    print(f"  CPython ast.parse only (no I/O, no start-up): {py_inproc_s * 1000:.0f} ms  "
          f"-> pykc {res['ratio_vs_parse_only']:.1f}x faster")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
