"""Host check of alias versioning without a GPU: compiles tests/gpu/kernels/alias_kernels.py
with `pykc inspect --emit llvm-opt` (the optimised module: overlap check, no-alias body
with its loads ahead of its stores, original body), runs it on the host through
host_run.py and compares every scenario of cases/alias_cases.py with NumPy's sequential
semantics: overlapping views must take the original body. The same with
--no-alias-versioning, and a check that the default module has both bodies.

    python3 tests/gpu/host_check_alias.py --pykc build/bin/pykc
"""

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "cases"))

import host_run  # noqa: E402
import alias_cases  # noqa: E402

SYMBOLS = {"saxpy": "saxpy__f32_f32a1C_f32a1C_f32a1C",
           "saxpy_any": "saxpy_any__f32_f32a1A_f32a1A_f32a1A",
           "add2d": "add2d__f64a2A_f64a2A_f64a2A"}


def run_all(libs, rng) -> list:
    failures = []
    for name, kernel, overlapping, make in alias_cases.SCENARIOS:
        bufs, views = make(rng)
        want = alias_cases.expected(kernel, bufs, views)
        got = {k: v.copy() for k, v in bufs.items()}
        # One thread for overlapping views (the loop in order); else 5 threads of a
        # grid-stride loop, run one after another.
        call = [ctypes.c_float(v) if isinstance(v, np.float32) else v for v in views(got)]
        host_run.launch(libs[kernel], SYMBOLS[kernel], 1 if overlapping else 5, *call)
        for k in bufs:
            close = np.isclose(got[k], want[k], rtol=1e-6, atol=1e-6, equal_nan=True)
            if not np.all(close):
                failures.append(f"{name}: {k} differs from the sequential result in "
                                f"{int(np.sum(~close))} of {want[k].size} elements")
    return failures


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    src = os.path.join(HERE, "kernels", "alias_kernels.py")
    failures = []
    rng = np.random.default_rng()
    for flags in ([], ["--no-alias-versioning"]):
        label = " ".join(flags) or "default"
        with tempfile.TemporaryDirectory() as d:
            libs = {}
            for kernel in SYMBOLS:
                ll = os.path.join(d, kernel + ".ll")
                text = subprocess.run(
                    [args.pykc, "inspect", f"{src}::{kernel}", "--emit", "llvm-opt"] + flags,
                    check=True, capture_output=True, text=True).stdout
                open(ll, "w").write(text)
                versioned = ".noalias:" in text and "!alias.scope" in text
                if versioned == bool(flags):
                    failures.append(f"{label}: {kernel} " +
                                    ("has" if versioned else "lacks") + " a no-alias body")
                os.mkdir(os.path.join(d, kernel))
                libs[kernel] = host_run.load(ll, os.path.join(d, kernel))
            got = run_all(libs, rng)
            failures += [f"{label}: {f}" for f in got]
            print(f"{label}: {len(alias_cases.SCENARIOS)} scenarios, {len(got)} failed")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
