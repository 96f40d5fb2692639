#!/usr/bin/env python3
"""Warm cache hits from a fresh process (issue 20 item 3, docs/BENCHMARKS.md
"Warm hits without the code generator").

Times whole processes, interleaved round by round so that a shared machine's
load drifts over all of them alike: `/bin/true` (the floor), `pykc --version`,
`pykc compile FILE -o DIR` on a warm cache (the hit), the same compile on an
empty cache folder (the miss: front end, LLVM, nvJitLink, store) and with
`--no-cache`. With `--ref OLD_PYKC` an older build runs beside the new one in
the same rounds.

    python3 bench/compile/warm_hit.py [--pykc build/bin/pykc] [--ref OLD_PYKC]
        [--file examples/saxpy.py] [--runs 9] [--miss-runs 5] [--json OUT.json]

Prints per command the median, min and max in milliseconds, and the median
less /bin/true's.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(argv, env):
    t = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return elapsed * 1e3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pykc", default=os.path.join(ROOT, "build", "bin", "pykc"))
    p.add_argument("--ref", help="an older pykc, timed beside --pykc")
    p.add_argument("--file", default=os.path.join(ROOT, "examples", "saxpy.py"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--runs", type=int, default=9, help="rounds of the fast commands")
    p.add_argument("--miss-runs", type=int, default=5, help="rounds of the miss (0: none)")
    p.add_argument("--json", help="write every time here")
    a = p.parse_args()
    builds = [("new", os.path.abspath(a.pykc))]
    if a.ref:
        builds.insert(0, ("ref", os.path.abspath(a.ref)))
    times = {}
    with tempfile.TemporaryDirectory(prefix="pykc-warm-hit.") as tmp:
        env = dict(os.environ)
        env.pop("PYKC_CACHE_DIR", None)
        commands = [("/bin/true", ["/bin/true"], None)]
        for name, exe in builds:
            cache = os.path.join(tmp, name + "-cache")
            out = os.path.join(tmp, name + "-out")
            compile_argv = [exe, "compile", a.file, "--arch", a.arch, "-o", out]
            # Fill the cache (the first compile is a miss), then check that a second hits.
            hit_env = dict(env, PYKC_CACHE_DIR=cache)
            subprocess.run(compile_argv, env=hit_env, check=True, capture_output=True)
            check = subprocess.run([exe, "-v"] + compile_argv[1:], env=hit_env, check=True, capture_output=True, text=True)
            if "cache hit" not in check.stderr:
                sys.exit(f"{exe}: the second compile did not hit:\n{check.stderr}")
            commands.append((f"{name} --version", [exe, "--version"], None))
            commands.append((f"{name} hit", compile_argv, hit_env))
        for label, argv, cmd_env in commands:
            timed(argv, cmd_env or env)  # one warm-up each
        for r in range(a.runs):
            for label, argv, cmd_env in commands:
                times.setdefault(label, []).append(timed(argv, cmd_env or env))
        for r in range(a.miss_runs):
            for name, exe in builds:
                cache = os.path.join(tmp, f"{name}-miss-{r}")
                out = os.path.join(tmp, name + "-miss-out")
                argv = [exe, "compile", a.file, "--arch", a.arch, "-o", out]
                times.setdefault(f"{name} miss", []).append(timed(argv, dict(env, PYKC_CACHE_DIR=cache)))
                times.setdefault(f"{name} --no-cache", []).append(timed(argv + ["--no-cache"], env))
            times.setdefault("/bin/true (miss rounds)", []).append(timed(["/bin/true"], env))
    floor = statistics.median(times["/bin/true"])
    print(f"{platform.node()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
          f"{os.path.relpath(a.file, ROOT)} --arch {a.arch}; {a.runs} rounds ({a.miss_runs} for misses)")
    print(f"{'command':<28} {'median':>8} {'min':>8} {'max':>8} {'-true':>8}  (ms)")
    for label, ts in times.items():
        m = statistics.median(ts)
        print(f"{label:<28} {m:8.2f} {min(ts):8.2f} {max(ts):8.2f} {m - floor:8.2f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d %H:%M"), "host": platform.node(), "file": a.file,
                       "arch": a.arch, "builds": dict(builds), "times_ms": times}, f, indent=1)


if __name__ == "__main__":
    main()
