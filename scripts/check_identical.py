#!/usr/bin/env python3
"""Refactors must not change what pykc emits (issue 18's proof).

Compiles every kernel file the tests and benchmarks compile -- tests/compile
(with its `# ARGS:` lines), the GPU suite's kernels (tests/gpu/kernels, with
their `# pykc-compile:` lines), bench/compile/kernels and bench/gpu's kernel
files -- with a reference `pykc` and the one under test, for sm_80, sm_90 and
sm_90a, writing PTX, cubins and manifests (--no-cache), and compares every
output byte for byte, and the exit status and stderr where a file fails.

    python3 scripts/check_identical.py --ref /tmp/ref/bin/pykc [--new build/bin/pykc] [--jobs 2]

Keep a reference build first, before the change: the executable and the code
generator it opens on a miss, in the same bin/ and lib/ layout
(`mkdir -p /tmp/ref/bin /tmp/ref/lib && cp build/bin/pykc /tmp/ref/bin/ &&
cp build/lib/libpykc_codegen.so /tmp/ref/lib/`, then `--ref /tmp/ref/bin/pykc`);
a copied executable alone would open the rebuilt build/lib/ library, which
refuses it as another build's. Exit 0 when everything is identical; 1 with the differences.
"""
import argparse
import concurrent.futures
import filecmp
import glob
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHS = ["sm_80", "sm_90", "sm_90a"]


def extra_args(path):
    args = []
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("# ARGS:"):
            args += [a for a in shlex.split(line[len("# ARGS:"):]) if a != "%s"]
        elif line.startswith("# pykc-compile:"):
            args += line[len("# pykc-compile:"):].split()
    # The arch is this script's; drop a file's own --arch.
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "--arch":
            skip = True
            continue
        if a.startswith("--arch="):
            continue
        out.append(a)
    return out


def files():
    found = sorted(glob.glob(os.path.join(ROOT, "tests/compile/*.py")))
    found = [f for f in found if not f.endswith("run_compile_tests.py")]
    found += sorted(glob.glob(os.path.join(ROOT, "tests/gpu/kernels/*.py")))
    found += sorted(glob.glob(os.path.join(ROOT, "bench/compile/kernels/*.py")))
    found += sorted(glob.glob(os.path.join(ROOT, "bench/gpu/*kernels*.py")))
    return found


def run(pykc, src, arch, out):
    argv = [pykc, "compile", src, "--arch", arch, "-o", out, "--no-cache", "--emit", "ptx,cubin", *extra_args(src)]
    r = subprocess.run(argv, capture_output=True, text=True)
    return r.returncode, r.stderr.replace(out, "OUT")


def compare(job):
    ref, new, src, arch, tmp = job
    name = os.path.relpath(src, ROOT).replace("/", "_") + "." + arch
    a, b = os.path.join(tmp, "ref", name), os.path.join(tmp, "new", name)
    ra, rb = run(ref, src, arch, a), run(new, src, arch, b)
    problems = []
    if ra != rb:
        problems.append(f"{os.path.relpath(src, ROOT)} {arch}: exit/stderr differ: {ra[0]} vs {rb[0]}")
    if os.path.isdir(a) or os.path.isdir(b):
        names = sorted(set(os.listdir(a) if os.path.isdir(a) else []) | set(os.listdir(b) if os.path.isdir(b) else []))
        for n in names:
            fa, fb = os.path.join(a, n), os.path.join(b, n)
            if not (os.path.exists(fa) and os.path.exists(fb) and filecmp.cmp(fa, fb, shallow=False)):
                problems.append(f"{os.path.relpath(src, ROOT)} {arch}: {n} differs")
    count = len(os.listdir(b)) if os.path.isdir(b) else 0
    return problems, count


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ref", required=True)
    p.add_argument("--new", default=os.path.join(ROOT, "build", "bin", "pykc"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [(a.ref, a.new, f, arch, tmp) for f in files() for arch in ARCHS]
        problems, outputs = [], 0
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            for found, count in pool.map(compare, jobs):
                problems += found
                outputs += count
    for line in problems:
        print("DIFF", line)
    print(f"{len(jobs)} compiles ({len(files())} files x {len(ARCHS)} archs), {outputs} output files: "
          + ("identical" if not problems else f"{len(problems)} differences"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
