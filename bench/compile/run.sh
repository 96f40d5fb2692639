#!/usr/bin/env bash
# Compile-time benchmark: pykc against nvcc, NVRTC and numba-cuda, whole processes,
# timed with hyperfine. Writes bench/compile/results-<date>.json and prints a markdown
# table of ratios. See docs/BENCHMARKS.md.
#
#   bench/compile/run.sh [--runs N] [--warmup N] [--only PATTERN] [--no-numba]
#
# Environment: PYKC (default build-bench/pykc, a frozen copy of build-core/tools/pykc),
# NVCC (default nvcc), VENV (default build-bench/venv, with numba-cuda 0.30.4 and the
# NVIDIA compiler wheels; see docs/BENCHMARKS.md for its setup).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

RUNS=10
WARMUP=3
ONLY=""
NUMBA=1
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --only) ONLY="$2"; shift 2 ;;
        --no-numba) NUMBA=0; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

PYKC="${PYKC:-$root/build-bench/pykc}"
NVCC="${NVCC:-nvcc}"
VENV="${VENV:-$root/build-bench/venv}"
NVRTC="$root/build-bench/nvrtc_driver"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"

[ -x "$PYKC" ] || { echo "no pykc at $PYKC (cp build-core/tools/pykc build-bench/pykc)" >&2; exit 3; }
if [ ! -x "$NVRTC" ] || [ "$here/nvrtc_driver.cpp" -nt "$NVRTC" ]; then
    g++ -O2 -std=c++17 -I"$CUDA_HOME/include" "$here/nvrtc_driver.cpp" -L"$CUDA_HOME/lib64" \
        -lnvrtc -Wl,-rpath,"$CUDA_HOME/lib64" -o "$NVRTC"
fi
if [ "$NUMBA" = 1 ] && ! "$VENV/bin/python" -c "import numba.cuda" 2>/dev/null; then
    echo "no numba-cuda in $VENV: python3 -m venv $VENV && $VENV/bin/pip install 'numba-cuda[cu13]==0.30.4'" >&2
    exit 3
fi

date_tag="$(date -u +%Y-%m-%d)"
work="$(mktemp -d /tmp/pykc-bench-compile.XXXXXX)"
trap 'rm -rf "$work"' EXIT
export PYKC_CACHE_DIR="$work/cache"   # only the pykc_warm runs use it

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for py in "$here"/kernels/k*.py; do
    name="$(basename "$py" .py)"
    case "$name" in *"$ONLY"*) ;; *) continue ;; esac
    cu="${py%.py}.cu"
    cmds=(
        -n pykc "$PYKC compile $py --arch sm_90 -o $work/pykc_$name --no-cache"
        -n nvcc "$NVCC -cubin -O3 -arch=sm_90 $cu -o $work/$name.nvcc.cubin"
        -n nvrtc "$NVRTC $cu $work/$name.nvrtc.cubin --arch sm_90"
        # A warm cache hit: the warm-up runs fill $PYKC_CACHE_DIR.
        -n pykc_warm "$PYKC compile $py --arch sm_90 -o $work/warm_$name"
    )
    if [ "$NUMBA" = 1 ]; then
        cmds+=(-n numba "$VENV/bin/python $here/numba_compile.py $py --quiet")
    fi
    echo "== $name (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    hyperfine -N --warmup "$WARMUP" --runs "$RUNS" --style basic \
        --export-json "$work/$name.json" "${cmds[@]}" >&2
    if [ "$NUMBA" = 1 ]; then   # numba's own split: import, then compile_ptx (3 runs)
        for _ in 1 2 3; do
            "$VENV/bin/python" "$here/numba_compile.py" "$py" --quiet --json "$work/numba_inproc.jsonl"
        done
    fi
done

# Where pykc's time goes on the largest file: stop after each phase.
big="$here/kernels/k10_many.py"
if [ -z "$ONLY" ] || [[ k10_many == *"$ONLY"* ]]; then
    echo "== phases of k10_many" >&2
    hyperfine -N --warmup "$WARMUP" --runs "$RUNS" --style basic --export-json "$work/phases.json" \
        -n check "$PYKC compile $big -o $work/ph --no-cache --phase check" \
        -n llvm "$PYKC compile $big -o $work/ph --no-cache --phase llvm" \
        -n ptx "$PYKC compile $big -o $work/ph --no-cache --phase ptx" \
        -n cubin "$PYKC compile $big -o $work/ph --no-cache --phase cubin" >&2
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

out="$here/results-$date_tag.json"
python3 "$here/summarize.py" "$work" "$out" \
    --pykc "$PYKC" --nvcc "$NVCC" --nvrtc "$NVRTC" --venv "$VENV" \
    --load-before "$load_before" --load-after "$load_after" --runs "$RUNS" --warmup "$WARMUP"
