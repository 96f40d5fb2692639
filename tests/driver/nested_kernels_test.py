#!/usr/bin/env python3
"""Kernels made inside functions compiled ahead of time (`--kernel test.kernel`,
sema/nested_kernels.cpp, docs/compile.md "Kernels made inside functions"): random
qualified names and a few hundred random mutations of a file of factories and test
functions must end in exit 0 or 1 with a diagnostic (never a signal, a hang or an
internal error). Then the scope and the cache: a constant of the enclosing function
changes the kernel (through the cache too), a module constant of the same name does not
leak into a module-level kernel, and the same file gives the same bytes. CPU only.

    tests/driver/nested_kernels_test.py --pykc build/bin/pykc
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from line_mutants import check_mutants, clean  # noqa: E402

SOURCE = '''import math

import cuda.tile as ct
from numba import cuda

SCALE = 1.0


@cuda.jit("void(float32[::1])")
def top(x):
    x[0] = SCALE


def make_tile(op, factor):
    @ct.kernel
    def kernel(x, out, TILE: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(out, index=(ct.bid(0),), tile=op(t) * factor)
    return kernel


class TestSuite:
    def test_method(self):
        SCALE = 2.0

        @cuda.jit(device=True)
        def helper(v):
            return v * SCALE

        @cuda.jit
        def kernel(x):
            i = cuda.grid(1)
            if i < x.size:
                x[i] = helper(x[i]) + math.pi
        return kernel


def test_loop():
    for dtype in (1, 2):
        @cuda.jit
        def kernel(x):
            x[0] = dtype
'''

FLAGS = ["--sig", "make_tile.kernel(float32[::1],float32[::1])", "--const", "TILE=64",
         "-D", "op=ct.exp", "-D", "factor=0.5",
         "--sig", "TestSuite.test_method.<locals>.kernel(float32[::1])"]


def run(pykc, path, *args, env=None, timeout=60):
    return subprocess.run([pykc, "compile", path, "--no-cache", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    a = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory(prefix="pykc-nested-") as tmp:
        path = os.path.join(tmp, "main.py")
        with open(path, "w") as f:
            f.write(SOURCE)
        r = run(a.pykc, path, "--phase", "check", *FLAGS)
        print(f"{'ok  ' if r.returncode == 0 else 'FAIL'} the file's nested kernels check: rc {r.returncode}")
        if r.returncode != 0:
            print(r.stderr[-2000:])
            failures.append("nested kernels")
        r = run(a.pykc, path, "--phase", "check", "--sig", "test_loop.kernel(int64[::1])")
        ok = r.returncode == 1 and "`dtype` is a parameter or local variable of `test_loop`" in r.stderr
        print(f"{'ok  ' if ok else 'FAIL'} a loop variable of the enclosing function is refused")
        if not ok:
            print(r.stderr[-2000:])
            failures.append("loop variable")

        # Random qualified names: parts of the file's names, dots, <locals>, junk.
        rng = random.Random(20261206)
        parts = ["make_tile", "kernel", "TestSuite", "test_method", "helper", "test_loop", "top",
                 "<locals>", "", "x", "op", "1a", "math", "ct", "é"]
        counts = {0: 0, 1: 0}
        for n in range(150):
            name = ".".join(rng.choice(parts) for _ in range(rng.randint(1, 5)))
            flag = rng.choice(["--kernel", "--sig"])
            value = name if flag == "--kernel" else name + rng.choice(["(float32[::1])", "(", "", "()"])
            try:
                r = run(a.pykc, path, "--phase", "check", flag, value, "-D", "op=ct.exp", "-D", "factor=2")
            except subprocess.TimeoutExpired:
                failures.append(f"name {value!r}: timed out")
                continue
            if r.returncode == 2 and "error:" in r.stderr:
                r = subprocess.CompletedProcess(r.args, 1, r.stdout, r.stderr)  # a usage error, said
            if not clean(r):
                print(f"FAIL name {value!r}: rc {r.returncode}\n{r.stderr[-1500:]}")
                failures.append(f"name {value!r}")
            else:
                counts[r.returncode] += 1
        print(f"ok   150 random names: {counts[0]} compiled, {counts[1]} refused with a diagnostic")

        # Random mutations of the file: lines dropped, doubled, swapped, cut.
        lines = SOURCE.splitlines(keepends=True)
        mpath = os.path.join(tmp, "mutant.py")

        def compile_mutant(text, n):
            with open(mpath, "w") as f:
                f.write(text)
            return run(a.pykc, mpath, "--phase", "check", *FLAGS)
        check_mutants(lines, rng, 200, compile_mutant, failures)

        # The scope through the cache: the enclosing function's constant is the kernel's.
        env = dict(os.environ, PYKC_CACHE_DIR=os.path.join(tmp, "cache-dir"))

        def ptx(source, tag, *flags):
            with open(path, "w") as f:
                f.write(source)
            out = os.path.join(tmp, "out-" + tag)
            r = subprocess.run([a.pykc, "compile", path, "--arch", "sm_90", "-o", out, *flags],
                               capture_output=True, text=True, env=env, timeout=120)
            if r.returncode != 0:
                print(r.stderr[-2000:])
                return ""
            with open(os.path.join(out, "main.sm_90.ptx")) as f:
                return f.read()
        method = ["--sig", "TestSuite.test_method.kernel(float32[::1])"]
        first, again = ptx(SOURCE, "a", *method), ptx(SOURCE, "b", *method)
        edited = ptx(SOURCE.replace("SCALE = 2.0", "SCALE = 4.0"), "c", *method)
        ok = first and first == again and edited != first and "0d4010000000000000" in edited
        print(f"{'ok  ' if ok else 'FAIL'} cache: same file same bytes; the enclosing function's edit recompiles")
        if not ok:
            failures.append("cache")
        # The module-level kernel keeps the module's SCALE (1.0) beside the nested one.
        both = ptx(SOURCE, "d", "--kernel", "top", "--kernel", "TestSuite.test_method.kernel", *method)
        top_body = [b for b in both.split(".entry") if b.lstrip().startswith("top")]
        ok = bool(top_body) and "1065353216" in top_body[0] and "0d4000000000000000" not in top_body[0]
        print(f"{'ok  ' if ok else 'FAIL'} scopes: the module-level kernel sees the module's SCALE")
        if not ok:
            print(both[:3000])
            failures.append("scopes")
    if failures:
        print(f"nested_kernels_test: {len(failures)} failed: " + ", ".join(failures))
        return 1
    print("nested_kernels_test: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
