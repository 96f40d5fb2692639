#!/usr/bin/env python3
"""Robustness of tile kernels' compile-time paths (ct.static_iter loops, tuple
comprehensions, host evaluation in ct.static_assert/static_eval, ct.astile, recursion on
Constants, RawArrayMemory, the order of memory accesses, enum classes, closures and
ct.reduce with a function, `with` over @contextmanager generators, dataclass __post_init__
and Constant instances): random line mutations of files that use them must end in exit 0,
or exit 1 with a diagnostic (never a signal, a hang or an internal error); the first ones of
each file are compiled to cubins, through the lowering. The files: the GPU suite's
tests/gpu/kernels/tile_kernels14.py, 15, 21, 24, 25 and 26 and the goldens
typed_tile_static_iter.py, typed_tile_static_host_eval.py, typed_tile_astile.py and
typed_tile_closures.py, with their own arguments. CPU only.

    tests/driver/tile_static_test.py --pykc build/bin/pykc [--mutants N]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from line_mutants import check_mutants  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def file_args(path):
    """A file's pykc arguments: its `# pykc-compile:` lines, or a golden's `# ARGS:` line
    less the options that only shape the golden's output."""
    args = []
    for line in open(path):
        if line.startswith("# pykc-compile:"):
            args += line[len("# pykc-compile:"):].split()
        elif line.startswith("# ARGS:"):
            words = line[len("# ARGS:"):].split()
            keep = words[words.index("%s") + 1:]
            args += [w for w in keep if w not in ("--phase=check", "--dump-typed")]
    return args


FILES = ["tests/gpu/kernels/tile_kernels14.py", "tests/gpu/kernels/tile_kernels15.py",
         "tests/check/typed_tile_static_iter.py",
         "tests/check/typed_tile_static_host_eval.py", "tests/check/typed_tile_astile.py",
         "tests/check/typed_tile_tuple_compare.py", "tests/gpu/kernels/tile_kernels21.py",
         "tests/check/typed_tile_closures.py", "tests/gpu/kernels/tile_kernels24.py",
         "tests/gpu/kernels/tile_kernels25.py", "tests/gpu/kernels/tile_kernels26.py"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pykc", required=True)
    ap.add_argument("--only", metavar="SUFFIX", help="only the files whose path ends so")
    ap.add_argument("--mutants", type=int, default=300, help="mutants per file checked (300)")
    ap.add_argument("--full", type=int, default=30,
                    help="of those, how many are compiled to cubins (lowering too; 30)")
    a = ap.parse_args()
    failures = []
    rng = random.Random(20261206)
    with tempfile.TemporaryDirectory(prefix="pykc-tile-static-") as tmp:
        for rel in [f for f in FILES if not a.only or f.endswith(a.only)]:
            # (the first --full mutants of each compile to cubins: lowering too)
            path = os.path.join(ROOT, rel)
            args = file_args(path)

            def check(source_path, full=False):
                phase = [] if full else ["--phase", "check"]
                return subprocess.run([a.pykc, "compile", source_path, "--no-cache", *phase, *args,
                                       "-o", os.path.join(tmp, "out")], capture_output=True, text=True, timeout=120)
            r = check(path)
            if r.returncode != 0:
                print(f"FAIL {rel} itself: rc {r.returncode}\n{r.stderr[-1500:]}")
                failures.append(rel)
                continue
            lines = open(path).read().splitlines(keepends=True)
            mpath = os.path.join(tmp, os.path.basename(rel))

            def compile_mutant(text, n):
                with open(mpath, "w") as f:
                    f.write(text)
                return check(mpath, full=n < a.full)
            check_mutants(lines, rng, a.mutants, compile_mutant, failures, label=f"{rel} mutant")
    if failures:
        print(f"tile_static: {len(failures)} failed: " + ", ".join(failures))
        return 1
    print("tile_static: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
