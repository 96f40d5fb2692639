#!/usr/bin/env bash
# Two pykc builds on the multi-kernel files, interleaved with nvcc and NVRTC so that a
# shared machine's load drifts over all of them alike (docs/BENCHMARKS.md, compile run 8):
#
#   BASE=/path/to/old/bin/pykc NEW=build/bin/pykc bench/compile/interleaved.sh [ROUNDS] [RUNS]
#
# (An old build is its bin/pykc and the lib/libpykc_codegen.so beside it, copied together.)
#
# Per round and file, one hyperfine call runs base, new with -j1, new with its default -j,
# nvcc and NVRTC (RUNS runs each after one warm-up). Prints medians over all rounds, the
# speed-ups over nvcc and NVRTC, and CPU time. Run it under `nice -n -10` on a busy machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-6}
runs=${2:-5}
: "${BASE:?set BASE to the old pykc}" "${NEW:?set NEW to the new pykc}"
NVRTC="$root/build-bench/nvrtc_driver"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -x "$NVRTC" ]; then
    g++ -O2 -std=c++17 -I"$CUDA_HOME/include" "$here/nvrtc_driver.cpp" -L"$CUDA_HOME/lib64" \
        -lnvrtc -Wl,-rpath,"$CUDA_HOME/lib64" -o "$NVRTC"
fi
work=$(mktemp -d /tmp/pykc-interleaved.XXXXXX)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
    for f in k09_warp_reduce k10_many; do
        k="$here/kernels/$f"
        hyperfine -N -w 1 -r "$runs" --export-json "$work/$f-$round.json" \
            -n base "$BASE compile $k.py --arch sm_90 -o $work/b --no-cache" \
            -n new_j1 "$NEW compile $k.py --arch sm_90 -o $work/n1 --no-cache -j1" \
            -n new "$NEW compile $k.py --arch sm_90 -o $work/n --no-cache" \
            -n nvcc "$CUDA_HOME/bin/nvcc -cubin -O3 -arch=sm_90 $k.cu -o $work/nvcc.cubin" \
            -n nvrtc "$NVRTC $k.cu $work/nvrtc.cubin --arch sm_90" >/dev/null 2>&1
        echo "round $round $f: load $(cut -d' ' -f1 /proc/loadavg)" >&2
    done
done
python3 - "$work" <<'PY'
import glob, json, statistics, sys
work = sys.argv[1]
for f in ("k09_warp_reduce", "k10_many"):
    times, cpu = {}, {}
    for path in sorted(glob.glob(f"{work}/{f}-*.json")):
        for r in json.load(open(path))["results"]:
            times.setdefault(r["command"], []).extend(r["times"])
            cpu.setdefault(r["command"], []).append(r["user"] + r["system"])
    m = {k: statistics.median(v) for k, v in times.items()}
    c = {k: statistics.mean(v) for k, v in cpu.items()}
    print(f)
    for k in ("base", "new_j1", "new"):
        print(f"  {k:7s} {m[k]*1e3:6.0f} ms (min {min(times[k])*1e3:.0f}, CPU {c[k]*1e3:.0f})"
              f"  nvcc/x {m['nvcc']/m[k]:.2f}  NVRTC/x {m['nvrtc']/m[k]:.2f}")
    print(f"  nvcc {m['nvcc']*1e3:.0f} ms, NVRTC {m['nvrtc']*1e3:.0f} ms")
PY
