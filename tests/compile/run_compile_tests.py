#!/usr/bin/env python3
"""Compile tests: each tests/compile/*.py is compiled by `pykc compile` (twice, with -j1 and
-j4, to check that the output is byte-identical whatever the threads) and its outputs are checked against directives in
its comments:

    # ARGS: --arch sm_80,sm_90 --lineinfo      extra `pykc compile` arguments
    # PTX: REGEX                  matches somewhere in the PTX (first arch)
    # PTX-NOT: REGEX              matches nowhere in the PTX
    # PTX-IN NAME: REGEX          matches inside the body of the entry whose symbol
    # PTX-NOT-IN NAME: REGEX        starts with NAME + "__" (NAME alone: the kernel)
    # LL: REGEX / # LL-NOT: REGEX  the lowered LLVM IR (before optimisation)
    # PTXAS-NOT: REGEX            matches nowhere in `ptxas -v`'s log of the PTX (its
    #                               info lines and warnings, e.g. C7514 serialisation)
    # MANIFEST: PYTHON-EXPR       true for `m`, the parsed manifest.json
    # FILES: NAME NAME ...        these files exist in the output folder

    tests/compile/run_compile_tests.py --pykc build/bin/pykc [FILES...]
"""
import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

DIRECTIVE = re.compile(r"^\s*# (ARGS|PTX|PTX-NOT|PTX-IN|PTX-NOT-IN|PTXAS-NOT|LL|LL-NOT|MANIFEST|FILES)"
                       r"(?: ([A-Za-z_0-9]+))?: (.*)$")


def entry_body(ptx, name):
    m = re.search(r"\.entry (" + re.escape(name) + r"__\w+)\(", ptx)
    if not m:
        return None
    start = m.start()
    end = ptx.find("\n}\n", start)
    return ptx[start:end if end >= 0 else len(ptx)]


def ptxas_log(ptx_path):
    """`ptxas -v` on a PTX file (the arch from its .target line): its whole log."""
    ptx = open(ptx_path).read()
    arch = re.search(r"^\.target (\w+)", ptx, re.M).group(1)
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    p = subprocess.run([ptxas, "-arch=" + arch, "-v", ptx_path, "-o", os.devnull],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"ptxas failed on {ptx_path}:\n{p.stderr}")
    return p.stdout + p.stderr


def compile_once(pykc, path, args, out, jobs):
    cmd = [pykc, "compile", path, "-o", out, "--emit", "llvm,ptx,cubin", "-j", str(jobs)] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p, cmd


def run_test(pykc, path):
    lines = open(path, encoding="utf-8").read().splitlines()
    directives = [m.groups() for m in map(DIRECTIVE.match, lines) if m]
    args = []
    for kind, _, value in directives:
        if kind == "ARGS":
            args += shlex.split(value)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        outs = [os.path.join(tmp, "a"), os.path.join(tmp, "b")]
        for out, jobs in zip(outs, (1, 4)):
            p, cmd = compile_once(pykc, path, args, out, jobs)
            if p.returncode != 0:
                return [f"`{' '.join(cmd)}` exited {p.returncode}:\n{p.stderr}"]
        # Determinism: every output file byte-identical across the two runs (one
        # thread, then four: a multi-kernel file's partitions run in parallel).
        names = sorted(os.listdir(outs[0]))
        if names != sorted(os.listdir(outs[1])):
            problems.append(f"different files: {names} vs {sorted(os.listdir(outs[1]))}")
        for n in names:
            a = open(os.path.join(outs[0], n), "rb").read()
            b_path = os.path.join(outs[1], n)
            if os.path.exists(b_path) and a != open(b_path, "rb").read():
                problems.append(f"{n} differs between -j1 and -j4 (not deterministic)")
        stem = os.path.splitext(os.path.basename(path))[0]
        ptxs = sorted(glob.glob(os.path.join(outs[0], stem + ".*.ptx")))
        lls = sorted(glob.glob(os.path.join(outs[0], stem + ".*.ll")))
        ptx = open(ptxs[0]).read() if ptxs else ""
        ll = open(lls[0]).read() if lls else ""
        manifest = json.load(open(os.path.join(outs[0], "manifest.json")))
        for kind, name, value in directives:
            if kind in ("PTX", "PTX-NOT", "LL", "LL-NOT"):
                text = ptx if kind.startswith("PTX") else ll
                found = re.search(value, text, re.M) is not None
                if found != (not kind.endswith("NOT")):
                    problems.append(f"{kind}: {value!r} {'found' if found else 'not found'}")
            elif kind in ("PTX-IN", "PTX-NOT-IN"):
                body = entry_body(ptx, name)
                if body is None:
                    problems.append(f"no .entry for kernel {name!r}")
                    continue
                found = re.search(value, body, re.M) is not None
                if found != (kind == "PTX-IN"):
                    problems.append(f"{kind} {name}: {value!r} {'found' if found else 'not found'}")
            elif kind == "PTXAS-NOT":
                log = ptxas_log(ptxs[0])
                if re.search(value, log, re.M):
                    problems.append(f"PTXAS-NOT: {value!r} found in ptxas's log:\n{log}")
            elif kind == "MANIFEST":
                if not eval(value, {"m": manifest}):
                    problems.append(f"MANIFEST: {value!r} is false")
            elif kind == "FILES":
                for f in value.split():
                    if not os.path.exists(os.path.join(outs[0], f)):
                        problems.append(f"FILES: {f} missing")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pykc", required=True)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    files = a.files or sorted(glob.glob(os.path.join(here, "*.py")))
    files = [f for f in files if os.path.basename(f) != os.path.basename(__file__)]
    failed = 0
    for f in files:
        problems = run_test(a.pykc, f)
        if problems:
            failed += 1
            print(f"FAIL {f}")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
    print(f"{len(files) - failed} of {len(files)} compile tests passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
