"""Programs written for numba-cuda or cuTile, run unchanged under ``python -m pykc run``,
each in its own process; their own checks decide (unittest asserts, the test functions
of a pytest-style file, or a program's exit status for folders without test_ files). Prints one line per file and a
summary, and writes the details as JSON.

    PYTHONPATH=python python3 tests/gpu/jit/run_realworld.py [DIR or FILE ...] [--json OUT]

DIR defaults to tests/realworld_numba/numba_cuda_doc_examples. Needs a GPU (exit 77
without one).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def has_gpu() -> bool:
    r = subprocess.run([sys.executable, "-c", "from pykc import cuda; "
                        "raise SystemExit(0 if cuda.is_available() else 1)"],
                       capture_output=True)
    return r.returncode == 0


def has_pytest() -> bool:
    return subprocess.run([sys.executable, "-c", "import pytest"], capture_output=True).returncode == 0


def pytest_counts(path, rc, out, t0) -> dict:
    """Counts from pytest's summary line ("3 failed, 12 passed, 1 skipped in 2.1s")."""
    last = next((ln for ln in reversed(out.splitlines()) if re.search(r" in [\d.]+s", ln)), "")
    count = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error|errors)", last)}
    errors = count.get("error", 0) + count.get("errors", 0)
    if not last:
        errors = 1  # stopped before pytest's summary (an import error)
    ran = count.get("passed", 0) + count.get("failed", 0) + count.get("skipped", 0) + errors
    return {"file": os.path.relpath(path, ROOT), "rc": rc, "ran": ran,
            "skipped": count.get("skipped", 0), "failures": count.get("failed", 0),
            "errors": errors, "seconds": round(time.perf_counter() - t0, 2),
            "output": out[-6000:]}


def run(path: str) -> dict:
    t0 = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not os.path.basename(path).startswith("test_"):
        # A program (cuTile's samples): its exit status, with its own checks turned on
        # where it has a switch for them (the samples' --correctness-check).
        cmd = [path] + (["--correctness-check"] if '"--correctness-check"' in text else [])
    elif "unittest.main()" in text:
        cmd = [path, "-v"]
    elif "pytest" in text and has_pytest():
        # parametrize, fixtures and pytest.raises as the file's authors ran it.
        cmd = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_pytest.py"), path]
    else:
        cmd = [os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "run_test_functions.py"), path]
    r = subprocess.run([sys.executable, "-m", "pykc", "run", *cmd],
                       capture_output=True, text=True, timeout=600,
                       cwd=os.path.dirname(path))
    out = r.stdout + r.stderr
    if cmd[0].endswith("run_pytest.py"):
        return pytest_counts(path, r.returncode, out, t0)
    m = re.search(r"Ran (\d+) tests?", out)
    # A file that stopped before running any test (an import error) counts as one error.
    ran = int(m.group(1)) if m else 1
    skipped = re.search(r"skipped=(\d+)", out)
    failures = re.search(r"failures=(\d+)", out)
    errors = re.search(r"errors=(\d+)", out)
    return {"file": os.path.relpath(path, ROOT), "rc": r.returncode, "ran": ran,
            "skipped": int(skipped.group(1)) if skipped else 0,
            "failures": int(failures.group(1)) if failures else 0,
            "errors": int(errors.group(1)) if errors else (0 if r.returncode == 0 else 1),
            "seconds": round(time.perf_counter() - t0, 2), "output": out[-6000:]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="*",
                    default=[os.path.join(ROOT, "tests/realworld_numba/numba_cuda_doc_examples")])
    ap.add_argument("--json")
    ns = ap.parse_args()
    if not has_gpu():
        print("SKIP: running numba programs on pykc needs a CUDA GPU")
        return 77
    results = []
    for d in ns.dirs:
        files = [os.path.abspath(d)] if os.path.isfile(d) else sorted(
            glob.glob(os.path.join(os.path.abspath(d), "test_*.py"))) or sorted(
            p for p in glob.glob(os.path.join(os.path.abspath(d), "*.py"))
            if not os.path.basename(p).startswith("_"))
        for path in files:
            res = run(path)
            results.append(res)
            passed = res["ran"] - res["skipped"] - res["failures"] - res["errors"]
            status = "PASS" if res["rc"] == 0 else "FAIL"
            print(f"{status} {res['file']}: {passed} passed, {res['skipped']} skipped, "
                  f"{res['failures']} failed, {res['errors']} errors ({res['seconds']} s)")
    tests = sum(r["ran"] for r in results)
    skipped = sum(r["skipped"] for r in results)
    bad = sum(r["failures"] + r["errors"] for r in results)
    print(f"files: {sum(r['rc'] == 0 for r in results)} of {len(results)} pass; tests: "
          f"{tests - skipped - bad} passed, {skipped} skipped, {bad} failed or errors")
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if all(r["rc"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
