#!/usr/bin/env bash
# On the GPU machine, from the repository root: unpacks a bundle made by bundle.sh and runs
# the GPU proofs named. Each mode's report goes to stdout and, as JSON, to $OUT (or
# BUNDLE/out) so that the device tool brings it back.
#
#   tests      tests/gpu/jit/run_jit_tests.py (the JIT against NumPy)
#   realworld  tests/gpu/jit/run_realworld.py on the numba and cuTile corpora
#   gpu        tests/gpu/run_gpu_tests.py on the bundle's compiled kernel files
#   driver     tests/gpu/compile_without_driver.py (a compile with the GPU visible vs hidden)
#   fatbin     tests/gpu/fatbin_arch.py (fatbins and PTX-only builds on the GPU, issue 24)
#   vsnumba    tests/realworld_numba/corpus/run_vs_numba.py --time (the numba corpus, pykc vs
#              numba-cuda: outputs compared, then kernel times; vsnumba-outputs: without
#              the times; both stream their report to vs_numba.txt). VSNUMBA_ARGS replaces
#              the default "-j 8" (files at a time; they take turns on the GPU) and may add a
#              file filter)
#   bench      bench/jit/jit_bench.py without cuTile, then bench/jit/tile_miss.py
#   cutile     bench/jit/jit_bench.py with cuTile (/tmp/cutile from cutile-for-device.sh)
#   vscutile   tests/realworld_tile/corpus/run_vs_cutile.py --time (the cuTile corpus, pykc vs
#              NVIDIA's cuTile: outputs compared, then kernel times; vscutile-outputs: without
#              the times, its report streamed to vs_cutile.txt), in cuTile's environment:
#              /tmp/cutile when an earlier call unpacked it there, else .cutile/activate.sh
#              (../shared/tools/cutile-for-device.sh makes .cutile). Files at a time, the time
#              limit (so that the report comes back within a device call) and more options:
#              VSCUTILE_ARGS, which replaces the default "-j 8 --time-limit 500" (e.g.
#              "-j 12 --time-limit 500 --shard 1/3", or file filters). A bundle from
#              `bundle.sh OUT sm_90 --corpus-only` suffices (for vsnumba too)
#   cases      the GPU cases of the kernel files $CASES names (tests/gpu/kernels/NAME.py, compiled
#              here for $CASES_ARCH, default sm_90), e.g. CASES="tile_kernels24 tile_kernels26":
#              for a --corpus-only bundle, which carries no compiled cases
#   rowwise    bench/tile/rowwise.py (softmax, layer norm, RMS norm of (B, N) tiles against
#              the copy bandwidth, issue 23)
#   compilebench  bench/compile/gpu_host.py (compile time: pykc cold/warm/to PTX, ptxas on
#              pykc's PTX, nvcc, NVRTC, numba-cuda fresh and warm; issue 20 item 4): 9
#              rounds, fewer if the next would end past 420 s from the start (7 minutes);
#              COMPILEBENCH_ARGS adds options, e.g. "--rounds 5 --files k01,k10"
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bundle=$(cd "${1:?usage: run.sh BUNDLE MODE...}" && pwd); shift
out=${OUT:-$bundle/out}; mkdir -p "$out"
for f in "$bundle/bin/pykc" "$bundle/lib/libpykc_codegen.so" "$bundle/lib/libpykc.so"; do
  # (bundle.sh --corpus-only leaves libpykc, the JIT's library, out)
  [ -f "$f" ] || [ ! -f "$f.xz" ] || xz -dk "$f.xz"
done
chmod +x "$bundle/bin/pykc"
export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYKC_LIBRARY=$bundle/lib/libpykc.so PYKC=$bundle/bin/pykc
export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH}
export PATH=$bundle/bin:$PATH
cd "$root"
status=0
# NVIDIA's cuTile (cuda.tile 1.7, tileiras) for the modes that run it: /tmp/cutile as
# .cutile/activate.sh unpacks it (in this call, or an earlier one on this warm machine).
with_cutile() (
  if [ -x /tmp/cutile/nvidia/cu13/bin/tileiras ]; then
    export PYTHONPATH=/tmp/cutile:$PYTHONPATH PATH=/tmp/cutile/nvidia/cu13/bin:$PATH \
      CUDA_HOME=/tmp/cutile/nvidia/cu13 LD_LIBRARY_PATH=/tmp/cutile/nvidia/cu13/lib:$LD_LIBRARY_PATH
  elif [ -f "$root/.cutile/activate.sh" ]; then
    source "$root/.cutile/activate.sh"
  else
    echo "no cuTile in /tmp/cutile: carry .cutile (../shared/tools/cutile-for-device.sh) first"
    exit 1
  fi
  "$@"
)
for mode in "$@"; do
  echo "=== $mode ($(date -u +%H:%M:%S))"
  case $mode in
    tests) python3 tests/gpu/jit/run_jit_tests.py --json "$out/jit_tests.json" || status=1 ;;
    realworld) python3 tests/gpu/jit/run_realworld.py $(ls -d tests/realworld_numba/*/ \
                 tests/realworld_tile/*/ | grep -v /corpus/) --json "$out/realworld.json" || status=1 ;;
    gpu) python3 tests/gpu/run_gpu_tests.py "$bundle/gpu" > "$out/gpu.txt" 2>&1 || status=1
         tail -40 "$out/gpu.txt" ;;
    driver) python3 tests/gpu/compile_without_driver.py --pykc "$bundle/bin/pykc" || status=1 ;;
    fatbin) python3 tests/gpu/fatbin_arch.py --pykc "$bundle/bin/pykc" > "$out/fatbin.txt" 2>&1 || status=1
            cat "$out/fatbin.txt" ;;
    vsnumba) python3 -u tests/realworld_numba/corpus/run_vs_numba.py --pykc "$bundle/bin/pykc" \
               --time --json "$out/vs_numba.json" ${VSNUMBA_ARGS:--j 8} 2>&1 | tee "$out/vs_numba.txt"
             [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    vsnumba-outputs) python3 -u tests/realworld_numba/corpus/run_vs_numba.py --pykc "$bundle/bin/pykc" \
               --json "$out/vs_numba.json" ${VSNUMBA_ARGS:--j 8} 2>&1 | tee "$out/vs_numba.txt"
             [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    bench) python3 bench/jit/jit_bench.py --no-cutile --json "$out/jit_bench.json" || status=1
           python3 bench/jit/tile_miss.py --json "$out/tile_miss.json" || status=1 ;;
    cutile) with_cutile python3 bench/jit/jit_bench.py --json "$out/jit_bench_cutile.json" || status=1 ;;
    vscutile) with_cutile python3 -u tests/realworld_tile/corpus/run_vs_cutile.py --pykc "$bundle/bin/pykc" \
                --time --json "$out/vs_cutile.json" ${VSCUTILE_ARGS:--j 8 --time-limit 500} 2>&1 \
                | tee "$out/vs_cutile.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    vscutile-outputs) with_cutile python3 -u tests/realworld_tile/corpus/run_vs_cutile.py --pykc "$bundle/bin/pykc" \
                --json "$out/vs_cutile.json" ${VSCUTILE_ARGS:--j 8 --time-limit 500} 2>&1 \
                | tee "$out/vs_cutile.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    cases) # GPU cases of the kernel files named in $CASES (e.g. "tile_kernels24 tile_kernels26"),
           # compiled here by the bundle's pykc: a --corpus-only bundle has no compiled cases.
           mkdir -p /tmp/pykc-cases
           for f in ${CASES:?cases needs CASES=\"tile_kernelsNN ...\"}; do
             bash tests/gpu/compile_kernel_file.sh "$bundle/bin/pykc" "tests/gpu/kernels/$f.py" \
               "${CASES_ARCH:-sm_90}" "/tmp/pykc-cases/$f" > "$out/compile_$f.txt" 2>&1 \
               || { echo "compile of $f failed:"; tail -20 "$out/compile_$f.txt"; status=1; }
           done
           python3 tests/gpu/run_gpu_tests.py /tmp/pykc-cases --missing skip > "$out/cases.txt" 2>&1 || status=1
           tail -20 "$out/cases.txt" ;;
    rowwise) python3 bench/tile/rowwise.py --json "$out/rowwise.json" || status=1 ;;
    compilebench) python3 bench/compile/gpu_host.py --pykc "$bundle/bin/pykc" --rounds 9 --time-limit 420 \
                    --json "$out/compile_bench.json" ${COMPILEBENCH_ARGS:-} || status=1 ;;
    *) echo "unknown mode $mode"; status=2 ;;
  esac
done
exit $status
