#!/usr/bin/env python3
"""Run the GPU tests against a folder of compiled pykc outputs.

    python3 tests/gpu/run_gpu_tests.py ROOT [-k SUBSTRING] [--seed N] [--allow-skip]
                                             [--missing {fail,skip}]

ROOT holds one output folder per case module (ROOT/saxpy, ROOT/features), made by
`pykc compile tests/gpu/kernels/<name>.py --arch sm_90 -o ROOT/<name>` (or, to check the
loader alone, by tests/gpu/fixtures/build_nvcc_fixtures.py ROOT). Prints one line per
test and `GPU: N passed, M failed, K skipped`; exits 1 on any failure. Without a usable
CUDA GPU it prints `SKIP: no CUDA GPU available (<reason>)` and exits 0 with
--allow-skip (CI), else 77.
"""

import argparse
import os
import sys
import time
import traceback

import numpy as np  # noqa: F401  (fail early and plainly when NumPy is missing)

import harness


def gpu_unavailable_reason():
    """None when a CUDA device is usable, else why not (driver via cuda.bindings, then
    CuPy's runtime)."""
    reasons = []
    try:
        try:
            from cuda.bindings import driver
        except ImportError:
            from cuda import cuda as driver
        err, = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuInit: {driver.cuGetErrorName(err)[1].decode()}")
        err, count = driver.cuDeviceGetCount()
        if err != driver.CUresult.CUDA_SUCCESS or count == 0:
            raise RuntimeError("cuDeviceGetCount: no device")
        return None
    except Exception as e:
        reasons.append(f"cuda.bindings: {e}")
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return None
        reasons.append("cupy: no device")
    except Exception as e:
        reasons.append(f"cupy: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    return "; ".join(reasons)


def main():
    ap = argparse.ArgumentParser(description="pykc GPU tests")
    ap.add_argument("root", help="folder of compiled outputs (ROOT/<case folder>/manifest.json)")
    ap.add_argument("-k", dest="filter", default="", help="run cases whose name contains this")
    ap.add_argument("--seed", type=int, default=None, help="RNG seed (default: fresh)")
    ap.add_argument("--allow-skip", action="store_true",
                    help="exit 0 when no GPU is available (CI)")
    ap.add_argument("--missing", choices=("fail", "skip"), default="fail",
                    help="a case whose compiled output folder is missing: fail or skip")
    ap.add_argument("-v", "--verbose", action="store_true", help="tracebacks on failure")
    a = ap.parse_args()

    reason = gpu_unavailable_reason()
    if reason:
        print(f"SKIP: no CUDA GPU available ({reason})")
        return 0 if a.allow_skip else 77

    harness.load_case_modules()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"pykc GPU tests: root {a.root}, seed {seed}, {len(harness.CASES)} cases registered")
    passed = failed = skipped = 0
    for i, c in enumerate(harness.CASES):
        if a.filter not in c.name:
            continue
        t0 = time.perf_counter()
        folder = os.path.join(a.root, c.folder)
        try:
            if not os.path.isfile(os.path.join(folder, "manifest.json")):
                msg = f"no compiled output {folder}/manifest.json"
                if a.missing == "skip":
                    raise harness.Skip(msg)
                raise FileNotFoundError(msg)
            detail = c.fn(harness.Context(a.root, c.folder, seed + i)) or ""
            status = "PASS"
            passed += 1
        except harness.Skip as e:
            status, detail = "SKIP", str(e)
            skipped += 1
        except Exception as e:  # noqa: BLE001  (a failing case must not stop the run)
            status, detail = "FAIL", f"{type(e).__name__}: {e}"
            failed += 1
            if a.verbose:
                traceback.print_exc()
        ms = (time.perf_counter() - t0) * 1e3
        print(f"{status} {c.name}  ({ms:.0f} ms) {detail}".rstrip(), flush=True)
    print(f"GPU: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
