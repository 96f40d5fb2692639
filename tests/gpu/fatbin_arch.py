#!/usr/bin/env python3
"""On a GPU host (the H200, sm_90): fatbins and PTX-only builds run and compute what they
should (issue 24; docs/compile.md, "Architectures" and "Fatbins").

1. `--arch sm_80,sm_90,sm_100,compute_90 --fatbin`: pykc.load loads the fatbin, predicts
   the exact sm_90 cubin, and examples/saxpy.py's kernels compute NumPy's values; run
   with CUDA_DISABLE_PTX_JIT=1, so that only a cubin can run, and the kernel's binary
   version (cuda.core) must be 90.
2. `--arch compute_90` (PTX only, no cubin): pykc.load takes the PTX, the driver
   JIT-compiles it, the values are the same; with CUDA_DISABLE_PTX_JIT=1 the same load
   must fail (so 2 ran through the JIT, and 1 did not).
3. `--arch compute_90 --fatbin` (a fatbin of PTX alone) computes the same values.
4. The C++-free path of the loader's error: a build of sm_100 alone refuses to load on
   sm_90 with the message naming sm_90 and what the build holds.

Each load runs in a child process (the environment variables act at CUDA's first use).
Without a GPU (no nvidia-smi or no device) it prints SKIP and exits 77.

    PYTHONPATH=python python3 tests/gpu/fatbin_arch.py --pykc build/bin/pykc [--backend cuda.core]

nvFatbin must be loadable by pykc there (the toolkit's lib64/libnvfatbin.so.13, or the
one tests/gpu/device/bundle.sh puts in the bundle's lib/, on LD_LIBRARY_PATH).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SAXPY = os.path.join(ROOT, "examples", "saxpy.py")


def child(folder, backend, expect_arch, expect_kind):
    """Load `folder`, check the loader's choice, run saxpy and block_sum; print one JSON line."""
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import pykc
    mod = pykc.load(folder, backend=backend or None, sync=True)
    got = {"arch": mod.target.arch, "kind": mod.code_kind, "backend": mod.backend.name}
    assert (mod.target.arch, mod.code_kind) == (expect_arch, expect_kind), got
    rng = np.random.default_rng()
    n = (1 << 20) + 37
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    out = np.full(n, np.nan, np.float32)          # poisoned
    mod.saxpy[256, 256](np.float32(2.5), x, y, out)
    want = np.float32(2.5) * x + y
    err = float(np.max(np.abs(out - want)))
    assert err <= 1e-5, f"saxpy max error {err}"
    blocks = (n + 255) // 256
    partial = np.full(blocks, np.nan, np.float32)
    mod.block_sum[blocks, 256](x, partial)
    ref = np.pad(x, (0, blocks * 256 - n)).reshape(blocks, 256).sum(axis=1, dtype=np.float64)
    rel = float(np.max(np.abs(partial - ref)) / max(1.0, float(np.max(np.abs(ref)))))
    assert rel <= 1e-4, f"block_sum error {rel}"
    got.update(saxpy_max_error=err, block_sum_rel_error=rel)
    if mod.backend.name == "cuda.core":
        try:  # the driver's view of what runs: 90 for sm_90 SASS (cubin or JIT output)
            kernel = mod.saxpy.function(mod.saxpy.entries[0])
            got["binary_version"] = int(kernel.attributes.binary_version())
            got["ptx_version"] = int(kernel.attributes.ptx_version())
        except Exception as e:  # older cuda.core: no attributes
            got["binary_version"] = f"unavailable ({type(e).__name__})"
    print(json.dumps(got))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", default=os.environ.get("PYKC", os.path.join(ROOT, "build", "bin", "pykc")))
    ap.add_argument("--backend", default="", help="cuda.core or cupy (default: the loader's choice)")
    ap.add_argument("--child", nargs=3, metavar=("FOLDER", "ARCH", "KIND"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.backend, args.child[1], args.child[2])
        return 0
    if shutil.which("nvidia-smi") is None or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0:
        print("SKIP: no GPU on this machine (tests/gpu/fatbin_arch.py is for the GPU host)")
        return 77
    passed, failed = 0, 0

    def run_child(folder, arch, kind, env_extra=None, expect_fail=False, what=""):
        nonlocal passed, failed
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   PYKC_LOG="debug", **(env_extra or {}))
        # No JIT cache: a PTX load JIT-compiles every time, and with the JIT disabled an
        # earlier run's cached SASS cannot stand in for it.
        env["CUDA_CACHE_DISABLE"] = "1"
        cmd = [sys.executable, __file__, "--child", folder, arch, kind] + (["--backend", args.backend] if args.backend else [])
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        ok = (p.returncode != 0) if expect_fail else (p.returncode == 0)
        status = "PASS" if ok else "FAIL"
        passed, failed = passed + ok, failed + (not ok)
        detail = p.stdout.strip().splitlines()[-1:] if p.returncode == 0 else p.stderr.strip().splitlines()[-1:]
        log = [l for l in p.stderr.splitlines() if l.startswith("pykc: ")]
        print(f"{status}: {what}\n  {' | '.join(log)}\n  {' '.join(detail)}")

    def compile_(out, *flags):
        p = subprocess.run([args.pykc, "compile", SAXPY, "--no-cache", "-o", out, *flags],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            print(f"FAIL: pykc compile {' '.join(flags)}: exit {p.returncode}\n{p.stderr}")
        return p.returncode == 0

    with tempfile.TemporaryDirectory(prefix="pykc-fatbin-") as tmp:
        fat, ptx, ptxfat, b100 = (os.path.join(tmp, d) for d in ("fat", "ptx", "ptxfat", "b100"))
        if not (compile_(fat, "--arch", "sm_80,sm_90,sm_100,compute_90", "--fatbin")
                and compile_(ptx, "--arch", "compute_90")
                and compile_(ptxfat, "--arch", "compute_90", "--fatbin")
                and compile_(b100, "--arch", "sm_100")):
            return 1
        run_child(fat, "sm_90", "cubin", what="fatbin sm_80+sm_90+sm_100+compute_90 runs the sm_90 cubin")
        run_child(fat, "sm_90", "cubin", {"CUDA_DISABLE_PTX_JIT": "1"},
                  what="the same fatbin with the driver's PTX JIT disabled (so a cubin ran)")
        run_child(ptx, "compute_90", "ptx", what="PTX-only build (compute_90) through the driver's JIT")
        run_child(ptx, "compute_90", "ptx", {"CUDA_DISABLE_PTX_JIT": "1"}, expect_fail=True,
                  what="the PTX-only build fails to load with the JIT disabled (so it was JIT-compiled)")
        run_child(ptxfat, "compute_90", "ptx", what="a fatbin of compute_90 PTX alone")
        # sm_100's files: its cubin does not run on 9.0, but its PTX is sm_90's (ptx_target).
        run_child(b100, "sm_100", "ptx", what="an sm_100 build runs its sm_90 PTX through the JIT")
        os.remove(os.path.join(b100, "saxpy.sm_100.ptx"))
        manifest = json.load(open(os.path.join(b100, "manifest.json")))
        del manifest["targets"][0]["ptx"]
        json.dump(manifest, open(os.path.join(b100, "manifest.json"), "w"))
        run_child(b100, "sm_100", "cubin", expect_fail=True,
                  what="a build of the sm_100 cubin alone refuses to load on sm_90 (message above)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
