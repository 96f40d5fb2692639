"""bench/compile/gpu_host.py without running a compiler: --dry-run lists every peer's
command for the files asked for, and the report's arithmetic on made-up samples.
Run: python3 -m pytest tests/python/test_gpu_host_bench.py
"""

import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SCRIPT = os.path.join(ROOT, "bench", "compile", "gpu_host.py")
sys.path.insert(0, os.path.dirname(SCRIPT))

import gpu_host  # noqa: E402


def test_dry_run_lists_the_commands_of_the_files_asked_for():
    res = subprocess.run([sys.executable, SCRIPT, "--dry-run", "--files", "k01,k10", "--pykc", "/nowhere/pykc"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert any(x.startswith("k01_saxpy pykc_cold: /nowhere/pykc compile ") and x.endswith("--no-cache") for x in lines)
    assert any(x.startswith("k10_many pykc_warm: ") and "--cache-dir" in x for x in lines)
    assert any(x.startswith("k10_many pykc_ptx: ") and x.endswith("--phase ptx") for x in lines)
    assert "k02_block_sum" not in res.stdout
    assert "pykc          not found: skipped" in res.stderr


def test_report_ratios_geomeans_and_targets():
    samples = {"k01_saxpy": {"pykc_cold": [30.0, 36.0, 33.0], "pykc_ptx": [10.0, 10.0, 10.0],
                             "ptxas": [20.0, 20.0, 20.0], "nvcc": [330.0, 330.0, 330.0],
                             "numba_warm": [165.0, 165.0, 165.0]},
               "k10_many": {"pykc_cold": [400.0], "nvcc": [1600.0], "numba_warm": [1600.0]}}
    st = gpu_host.summarize(samples)
    assert st["k01_saxpy"]["pykc_cold"] == {"median": 33.0, "min": 30.0, "max": 36.0, "n": 3}
    rat = gpu_host.ratios(st)
    assert rat["k01_saxpy"]["nvcc"] == 10.0 and rat["k01_saxpy"]["pykc_over_floor"] == 1.1
    facts = {"k01_saxpy": {"kernels": 1}, "k10_many": {"kernels": 26}}
    table, g = gpu_host.markdown(st, rat, facts, None)
    assert abs(g["nvcc"] - (10.0 * 4.0) ** 0.5) < 1e-9
    assert "| k01_saxpy | 1 | 33 | 10.0 | 20 | 330 | 165 | 10.00 | 5.00 |" in table
    assert "| **geomean** |" in table
    tgt = gpu_host.targets(st, rat, facts, g)
    assert "(geomean): 6.32x: missed" in tgt
    assert "1/2 files (lowest 4.00x, k10_many): missed" in tgt
    assert "(k01_saxpy): 33.0 ms: met; ptxas alone on its PTX 20.0 ms" in tgt
