"""Merge run.sh's hyperfine JSON files into one results file and print a markdown table
of ratios (peer median / pykc median: above 1 means pykc is faster)."""
import argparse
import glob
import json
import math
import os
import platform
import subprocess
import sys


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception as e:  # noqa: BLE001
        return f"? ({e})"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("work")
    ap.add_argument("out")
    ap.add_argument("--pykc")
    ap.add_argument("--nvcc")
    ap.add_argument("--nvrtc")
    ap.add_argument("--venv")
    ap.add_argument("--load-before")
    ap.add_argument("--load-after")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--warmup", type=int)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    kdir = os.path.join(root, "bench", "compile", "kernels")

    files = {}
    for path in sorted(glob.glob(os.path.join(a.work, "k*.json"))):
        name = os.path.basename(path)[:-5]
        res = json.load(open(path))["results"]
        py = os.path.join(kdir, name + ".py")
        try:
            manifest = json.load(open(os.path.join(a.work, f"pykc_{name}", "manifest.json")))
            nkernels = len(manifest["kernels"])
        except OSError:
            nkernels = None
        files[name] = {
            "lines_py": sum(1 for _ in open(py)),
            "lines_cu": sum(1 for _ in open(py[:-3] + ".cu")),
            "kernels": nkernels,
            "median_s": {r["command"]: r["median"] for r in res},
            "mean_s": {r["command"]: r["mean"] for r in res},
            "stddev_s": {r["command"]: r["stddev"] for r in res},
            "min_s": {r["command"]: r["min"] for r in res},
            # CPU time of the process and its children (hyperfine's means): far less
            # sensitive than wall time to other users' load on a shared machine
            "cpu_s": {r["command"]: r["user"] + r["system"] for r in res},
            "times_s": {r["command"]: r["times"] for r in res},
        }
    phases = None
    if os.path.exists(os.path.join(a.work, "phases.json")):
        phases = {r["command"]: r["median"] for r in json.load(open(os.path.join(a.work, "phases.json")))["results"]}

    inproc = {}
    jl = os.path.join(a.work, "numba_inproc.jsonl")
    if os.path.exists(jl):
        for line in open(jl):
            r = json.loads(line)
            inproc.setdefault(r["file"][:-3], []).append(r)
    for name, rs in inproc.items():
        if name in files:
            med = lambda k: sorted(x[k] for x in rs)[len(rs) // 2]  # noqa: E731
            files[name]["numba_in_process_ms"] = {"import": med("import_ms"), "compile_ptx": med("compile_ptx_ms")}

    peers = ["nvcc", "nvrtc", "numba"]
    for f in files.values():
        m, mn, c = f["median_s"], f["min_s"], f["cpu_s"]
        f["ratio_peer_over_pykc"] = {p: m[p] / m["pykc"] for p in peers if p in m}
        f["ratio_min_peer_over_pykc"] = {p: mn[p] / mn["pykc"] for p in peers if p in mn}
        f["ratio_cpu_peer_over_pykc"] = {p: c[p] / c["pykc"] for p in peers if p in c}
    summary = {p: geomean([f["ratio_peer_over_pykc"].get(p) for f in files.values()]) for p in peers}
    summary_min = {p: geomean([f["ratio_min_peer_over_pykc"].get(p) for f in files.values()]) for p in peers}
    summary_cpu = {p: geomean([f["ratio_cpu_peer_over_pykc"].get(p) for f in files.values()]) for p in peers}

    env = {
        "date_utc": sh("date -u +%Y-%m-%dT%H:%M:%SZ"),
        "host": platform.node(),
        "cpu": sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip(),
        "cores": os.cpu_count(),
        "load_before": a.load_before,
        "load_after": a.load_after,
        "pykc": a.pykc,
        "pykc_version": sh(f"{a.pykc} --version"),
        # the commit the frozen binary was copied at (build-bench/pykc.commit), else HEAD's
        "pykc_git_commit": (open(os.path.join(os.path.dirname(a.pykc), "pykc.commit")).read().split()[0]
                            if os.path.exists(os.path.join(os.path.dirname(a.pykc), "pykc.commit"))
                            else sh(f"git -C {root} log -1 --format=%h")),
        "pykc_binary_sha256": sh(f"sha256sum {a.pykc} | cut -c1-16"),
        "nvcc": sh(f"{a.nvcc} --version | tail -1"),
        "nvrtc_driver": a.nvrtc,
        "numba_cuda": sh(f"{a.venv}/bin/python -c 'import numba_cuda, numba; print(numba_cuda.__version__, numba.__version__)'"),
        "numba_wheels": sh(f"{a.venv}/bin/pip list 2>/dev/null | grep -E 'nvidia-(nvvm|cuda-nvrtc|nvjitlink)|cuda-bindings|llvmlite'"),
        "hyperfine": sh("hyperfine --version"),
        "runs": a.runs,
        "warmup": a.warmup,
        "pykc_cache": "pykc: compile --no-cache (cold); pykc_warm: the same compile as a cache hit "
                      "(the warm-up runs fill a fresh PYKC_CACHE_DIR)",
        "numba_note": "numba-cuda stops at PTX (cuda.compile_ptx): its time has no ptxas; pykc and NVRTC write cubins",
    }
    result = {"env": env, "files": files, "geomean_ratio_peer_over_pykc": summary,
              "geomean_ratio_min_peer_over_pykc": summary_min,
              "geomean_ratio_cpu_peer_over_pykc": summary_cpu, "pykc_phases_k10_median_s": phases}
    with open(a.out, "w") as fh:
        json.dump(result, fh, indent=1)

    print(f"\nCompile time, whole processes, medians of {a.runs} runs after {a.warmup} warm-ups; "
          f"load {a.load_before} -> {a.load_after}; pykc {env['pykc_git_commit']}")
    print("ratio = peer time / pykc time (above 1: pykc faster). Targets: nvcc >= 10, NVRTC >= 1.3\n")
    print("| file | kernels | lines | pykc ms | nvcc ms | NVRTC ms | numba ms (compile_ptx alone) | nvcc/pykc | NVRTC/pykc | numba/pykc |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, f in files.items():
        m, r = f["median_s"], f["ratio_peer_over_pykc"]
        ms = lambda k: f"{1e3 * m[k]:.0f}" if k in m else "-"  # noqa: E731
        rr = lambda k: f"{r[k]:.2f}" if k in r else "-"  # noqa: E731
        ip = f.get("numba_in_process_ms")
        nb = ms("numba") + (f" ({ip['compile_ptx']:.0f})" if ip else "")
        print(f"| {name} | {f['kernels']} | {f['lines_py']} | {ms('pykc')} | {ms('nvcc')} | {ms('nvrtc')} | "
              f"{nb} | {rr('nvcc')} | {rr('nvrtc')} | {rr('numba')} |")
    print(f"| **geomean** | | | | | | | **{summary['nvcc']:.2f}** | **{summary['nvrtc']:.2f}** | "
          f"**{summary.get('numba', float('nan')):.2f}** |")
    print(f"\nSame ratios from the fastest run of each (min wall): nvcc {summary_min['nvcc']:.2f}, "
          f"NVRTC {summary_min['nvrtc']:.2f}, numba {summary_min.get('numba', float('nan')):.2f}; "
          f"from CPU time (user+sys): nvcc {summary_cpu['nvcc']:.2f}, NVRTC {summary_cpu['nvrtc']:.2f}, "
          f"numba {summary_cpu.get('numba', float('nan')):.2f}")
    print("\n| file | pykc CPU ms | nvcc/pykc (CPU) | NVRTC/pykc (CPU) | numba/pykc (CPU) | pykc min ms | nvcc/pykc (min) | NVRTC/pykc (min) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, f in files.items():
        rc, rm = f["ratio_cpu_peer_over_pykc"], f["ratio_min_peer_over_pykc"]
        print(f"| {name} | {1e3 * f['cpu_s']['pykc']:.0f} | {rc['nvcc']:.2f} | {rc['nvrtc']:.2f} | "
              f"{rc.get('numba', float('nan')):.2f} | {1e3 * f['min_s']['pykc']:.0f} | {rm['nvcc']:.2f} | {rm['nvrtc']:.2f} |")
    if any("pykc_warm" in f["median_s"] for f in files.values()):
        print("\n| file | pykc warm hit ms | nvcc/pykc warm | NVRTC/pykc warm |")
        print("|---|---:|---:|---:|")
        warm = []
        for name, f in files.items():
            m = f["median_s"]
            if "pykc_warm" not in m:
                continue
            warm.append((m["nvcc"] / m["pykc_warm"], m["nvrtc"] / m["pykc_warm"]))
            print(f"| {name} | {1e3 * m['pykc_warm']:.1f} | {warm[-1][0]:.0f} | {warm[-1][1]:.1f} |")
        print(f"| **geomean** | | **{geomean([w[0] for w in warm]):.0f}** | **{geomean([w[1] for w in warm]):.1f}** |")
    if phases:
        print("\npykc on k10_many, stopping after each phase (median ms): "
              + ", ".join(f"{k} {1e3 * v:.0f}" for k, v in phases.items()))
    print(f"\nwrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
