#!/usr/bin/env python3
"""The cost of a remote cache hit (docs/CACHE.md, "Remote storage").

Per kernel file, four whole `pykc compile FILE --arch sm_90` processes timed
with hyperfine:

  cold    --no-cache: front end, LLVM, PTX, nvJitLink
  local   a hit in a warm cache folder
  http    a hit from nginx (WebDAV) on loopback into an empty folder
          (hyperfine --prepare empties it before every run), written back
  redis   the same from redis-server on loopback

Writes bench/cache/results-<date>.json and prints a markdown table of medians
and ratios (docs/BENCHMARKS.md). Needs nginx, redis-server and hyperfine
(scripts/deps.sh installs them).

    bench/cache/remote_bench.py [--pykc build/bin/pykc] [--runs 20] [--only k01]
"""
import argparse
import datetime
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "cache", "remote"))
from remote_cache_test import Nginx, Redis, find_binary  # noqa: E402

KERNELS = os.path.join(ROOT, "bench", "compile", "kernels")


def hyperfine(name, command, runs, warmup, prepare, out_json):
    args = ["hyperfine", "-N", "--runs", str(runs), "--warmup", str(warmup), "--style", "none",
            "--export-json", out_json, "--command-name", name]
    if prepare:
        args += ["--prepare", prepare]
    subprocess.run(args + [command], check=True, stdout=subprocess.DEVNULL)
    with open(out_json) as f:
        r = json.load(f)["results"][0]
    return {"median_ms": r["median"] * 1000, "mean_ms": r["mean"] * 1000,
            "stddev_ms": r["stddev"] * 1000, "min_ms": r["min"] * 1000, "runs": len(r["times"])}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pykc", default=os.path.join(ROOT, "build", "bin", "pykc"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    pykc = os.path.abspath(args.pykc)
    for tool in ("nginx", "redis-server", "hyperfine"):
        if not find_binary(tool):
            print("remote_bench: %s is missing (scripts/deps.sh installs it)" % tool, file=sys.stderr)
            return 3
    files = sorted(f for f in os.listdir(KERNELS) if f.endswith(".py") and args.only in f)
    tmp = tempfile.mkdtemp(prefix="pykc-remote-bench.")
    nginx = Nginx(find_binary("nginx"), os.path.join(tmp, "nginx"))
    redis = Redis(find_binary("redis-server"), os.path.join(tmp, "redis"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYKC_")}
    os.environ.clear()
    os.environ.update(env)
    rows = []
    try:
        http = nginx.url(attrs="|read-only")
        red = redis.url(db=1, attrs="|read-only")
        warm = os.path.join(tmp, "warm")
        fresh = os.path.join(tmp, "fresh")
        out = os.path.join(tmp, "out")
        # One builder fills the local folder and both remotes.
        for f in files:
            subprocess.run([pykc, "compile", os.path.join(KERNELS, f), "--arch", "sm_90",
                            "--cache-dir", warm, "-o", out, "--remote", nginx.url(attrs="|read-write"),
                            "--remote", redis.url(db=1, attrs="|read-write")], check=True,
                           stderr=subprocess.DEVNULL)
        for f in files:
            path = os.path.join(KERNELS, f)
            base = "%s compile %s --arch sm_90 -o %s" % (pykc, path, out)
            row = {"file": f[:-3]}
            j = os.path.join(tmp, "h.json")
            row["cold"] = hyperfine("cold", base + " --no-cache", args.runs, args.warmup, None, j)
            row["local"] = hyperfine("local", base + " --cache-dir " + warm, args.runs,
                                     args.warmup, None, j)
            prep = "rm -rf " + fresh
            row["http"] = hyperfine("http", "%s --cache-dir %s --remote '%s'" % (base, fresh, http),
                                    args.runs, args.warmup, prep, j)
            row["redis"] = hyperfine("redis", "%s --cache-dir %s --remote '%s'" % (base, fresh, red),
                                     args.runs, args.warmup, prep, j)
            # Every remote run must really have been a remote hit.
            subprocess.run(["rm", "-rf", fresh])
            for url in (http, red):
                p = subprocess.run([pykc, "-v", "compile", path, "--arch", "sm_90", "-o", out,
                                    "--cache-dir", fresh, "--remote", url],
                                   capture_output=True, check=True)
                if b"from remote" not in p.stderr:
                    raise SystemExit("remote_bench: %s was no remote hit from %s" % (f, url))
                subprocess.run(["rm", "-rf", fresh])
            rows.append(row)
            print("%-18s cold %7.1f  local %5.1f  http %5.1f  redis %5.1f ms" % (
                row["file"], row["cold"]["median_ms"], row["local"]["median_ms"],
                row["http"]["median_ms"], row["redis"]["median_ms"]), file=sys.stderr)
    finally:
        nginx.stop()
        redis.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    def geomean(values):
        return math.exp(sum(math.log(v) for v in values) / len(values))

    # Medians, and minima (on a shared machine the least disturbed run).
    g = {}
    for stat in ("median_ms", "min_ms"):
        print("\n%s of %d runs\n" % ("Medians" if stat == "median_ms" else "Minima", args.runs))
        print("| file | cold ms | local hit ms | HTTP hit ms | Redis hit ms | cold/HTTP | cold/Redis | HTTP/local | Redis/local |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            c, l, h, d = (r[k][stat] for k in ("cold", "local", "http", "redis"))
            r.setdefault("ratios", {})[stat] = {
                "cold_over_http": c / h, "cold_over_redis": c / d,
                "http_over_local": h / l, "redis_over_local": d / l}
            print("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |" % (
                r["file"], c, l, h, d, c / h, c / d, h / l, d / l))
        g[stat] = {k: geomean([r["ratios"][stat][k] for r in rows])
                   for k in rows[0]["ratios"][stat]}
        print("| **geomean** | | | | | **%.1f** | **%.1f** | **%.2f** | **%.2f** |" % (
            g[stat]["cold_over_http"], g[stat]["cold_over_redis"], g[stat]["http_over_local"],
            g[stat]["redis_over_local"]))
    date = datetime.date.today().isoformat()
    result = {
        "date": date,
        "machine": "%s, %d cores, load %s" % (platform.platform(), os.cpu_count(),
                                               " ".join("%.2f" % x for x in os.getloadavg())),
        "pykc": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                               capture_output=True, text=True).stdout.strip(),
        "command": "bench/cache/remote_bench.py --runs %d --warmup %d" % (args.runs, args.warmup),
        "rows": rows,
        "geomean": g,
    }
    with open(os.path.join(HERE, "results-%s.json" % date), "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
