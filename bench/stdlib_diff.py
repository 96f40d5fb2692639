#!/usr/bin/env python3
"""Differential test of `pykc parse --dump-ast` against CPython's ast.dump.

Runs pykc over every .py file of a Python's Lib/ (tests included) and
compares its output with that Python's `ast.dump(ast.parse(source_bytes))`.
The bar: every file CPython accepts gives an identical dump, and pykc never
crashes. Exit status 0 when the bar is met, 1 otherwise.

    bench/stdlib_diff.py --pykc build/bin/pykc                   # python3's Lib
    bench/stdlib_diff.py --python /root/.pyenv/versions/3.12.1/bin/python3
    bench/stdlib_diff.py --sample 50                               # fast, deterministic

The script re-runs itself under --python so that ast.parse is that Python's.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import time
import warnings


def find_pykc():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    for build in sorted(os.listdir(root)):
        cand = os.path.join(root, build, "bin", "pykc")
        if build.startswith("build") and os.path.isfile(cand):
            return cand
    return None


def collect(lib):
    files = []
    for dirpath, dirnames, filenames in os.walk(lib):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
        for f in sorted(filenames):
            if f.endswith(".py"):
                files.append(os.path.join(dirpath, f))
    return files


def sample(files, n):
    # Deterministic: the n files with the smallest digest of their relative path.
    keyed = sorted(files, key=lambda p: hashlib.sha1(os.path.basename(p).encode() + p.encode()).hexdigest())
    return sorted(keyed[:n])


def check_one(args):
    path, pykc, fmt, attrs = args
    import ast
    with open(path, "rb") as f:
        src = f.read()
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src)
        expected = ast.dump(tree, include_attributes=attrs)
        cpy_ok = True
    except (SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError, OverflowError) as e:
        expected = None
        cpy_ok = False
        cpy_err = f"{type(e).__name__}: {e}"
    cpy_time = time.perf_counter() - t0
    cmd = [pykc, "parse", path, "--dump-ast", "--ast-format", fmt]
    if attrs:
        cmd.append("--include-attributes")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=60)
        rc = proc.returncode
        out = proc.stdout.decode("utf-8", "surrogateescape")
        err = proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", "timeout"
    pykc_time = time.perf_counter() - t0
    if rc not in (0, 1):
        status = "crash"
    elif cpy_ok and rc == 0:
        status = "identical" if out.rstrip("\n") == expected else "differing"
    elif not cpy_ok and rc == 1:
        status = "rejected-both"
    elif cpy_ok:
        status = "rejected-only-pykc"
    else:
        status = "accepted-only-pykc"
    detail = ""
    if status == "differing":
        a, b = out.rstrip("\n"), expected
        i = 0
        while i < min(len(a), len(b)) and a[i] == b[i]:
            i += 1
        detail = f"  pykc:    ...{a[max(0, i - 120):i + 80]}\n  cpython: ...{b[max(0, i - 120):i + 80]}"
    elif status in ("rejected-only-pykc", "crash"):
        detail = "  " + err.strip().replace("\n", "\n  ")[:600]
    elif status == "accepted-only-pykc":
        detail = "  cpython: " + cpy_err[:300]
    return path, status, detail, cpy_time, pykc_time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", default=sys.executable, help="interpreter whose Lib/ and ast to use")
    ap.add_argument("--pykc", default=None, help="pykc binary (default: build*/tools/pykc)")
    ap.add_argument("--lib", default=None, help="folder to scan (default: the interpreter's stdlib)")
    ap.add_argument("--sample", type=int, default=0, help="check only N files (deterministic choice)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel workers (default 2)")
    ap.add_argument("--include-attributes", action="store_true", help="compare positions too")
    ap.add_argument("--show", type=int, default=20, help="list at most N files per failing category")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if not args.inner and os.path.realpath(args.python) != os.path.realpath(sys.executable):
        cmd = [args.python, os.path.abspath(__file__), "--inner"] + [a for a in sys.argv[1:]]
        return subprocess.call(cmd)

    pykc = args.pykc or find_pykc()
    if not pykc or not os.path.isfile(pykc):
        print("stdlib_diff: cannot find pykc; pass --pykc", file=sys.stderr)
        return 2
    pykc = os.path.abspath(pykc)
    import sysconfig
    lib = args.lib or sysconfig.get_paths()["stdlib"]
    fmt = f"{sys.version_info[0]}.{sys.version_info[1]}"
    files = collect(lib)
    if args.sample:
        files = sample(files, args.sample)

    import multiprocessing
    t0 = time.perf_counter()
    work = [(f, pykc, fmt, args.include_attributes) for f in files]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(check_one, work, chunksize=4)
    wall = time.perf_counter() - t0

    cats = ["identical", "differing", "rejected-both", "rejected-only-pykc", "accepted-only-pykc", "crash"]
    by = {c: [] for c in cats}
    cpy_total = pykc_total = 0.0
    for path, status, detail, ct, pt in results:
        by[status].append((path, detail))
        cpy_total += ct
        pykc_total += pt
    print(f"python {sys.version.split()[0]} ({sys.executable}), Lib {lib}, format {fmt}, pykc {pykc}")
    for c in ("differing", "rejected-only-pykc", "accepted-only-pykc", "crash"):
        for path, detail in by[c][: args.show]:
            print(f"{c}: {os.path.relpath(path, lib)}")
            if detail:
                print(detail)
    print(f"files:               {len(files)}")
    for c in cats:
        print(f"{c + ':':<21}{len(by[c])}")
    print(f"time: wall {wall:.1f}s, ast.parse+dump {cpy_total:.1f}s, pykc processes {pykc_total:.1f}s")
    ok = not by["differing"] and not by["rejected-only-pykc"] and not by["crash"]
    print("bar met" if ok else "bar NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
