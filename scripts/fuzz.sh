#!/usr/bin/env bash
# Fuzzes the front end with libFuzzer for N seconds (default 60; CI runs 60).
#
#   scripts/fuzz.sh [seconds] [extra libFuzzer flags...]
#
# `scripts/fuzz.sh 0` only builds and replays the regression inputs.
#
# Configures and builds build-fuzz/ (clang, ASan + UBSan, PYKC_FUZZ=ON) when
# needed, replays every tests/fuzz/regressions/ input, then fuzzes a working
# copy of tests/fuzz/corpus/ kept in build-fuzz/ (the checked-in corpus is
# never written). Exits non-zero on a crash, timeout, leak, out-of-memory or
# sanitizer report; the reproducer is left in build-fuzz/fuzz-artifacts/.
#
# Environment: PYKC_FUZZ_TARGET (fuzz_frontend; fuzz_lexer fuzzes the lexer
# alone; fuzz_remote the remote cache's parsers, with tests/fuzz/corpus_remote/
# and tests/fuzz/regressions_remote/), PYKC_FUZZ_BUILD (build folder), PYKC_FUZZ_JOBS (build parallelism,
# default nproc), CLANG_BIN (/usr/lib/llvm-19/bin).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
target=${PYKC_FUZZ_TARGET:-fuzz_frontend}
build=${PYKC_FUZZ_BUILD:-$root/build-fuzz}
jobs=${PYKC_FUZZ_JOBS:-$(nproc)}
clang_bin=${CLANG_BIN:-/usr/lib/llvm-19/bin}
fuzz_dir=$root/tests/fuzz

if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "fuzz: configuring $build"
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  # -O1 -g without NDEBUG: asserts stay on, builds fast, fuzzes fast.
  CC=$clang_bin/clang CXX=$clang_bin/clang++ cmake -S "$root" -B "$build" "${generator[@]}" \
    -DPYKC_FUZZ=ON -DPYKC_SANITIZE=ON -DPYKC_BUILD_TESTS=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
fi
cmake --build "$build" --target "$target" -j "$jobs"
bin=$build/tests/fuzz/$target

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
common=(-timeout=10 -rss_limit_mb=2048 -max_len=65536)

# Per target: its corpus, regression inputs, dictionary and working copy.
shopt -s nullglob
if [ "$target" = fuzz_remote ]; then
  corpus=$fuzz_dir/corpus_remote
  regressions=("$fuzz_dir"/regressions_remote/*)
  dict=()
  work=$build/fuzz-corpus-remote
else
  corpus=$fuzz_dir/corpus
  regressions=("$fuzz_dir"/regressions/*.py)
  dict=(-dict="$fuzz_dir/python.dict")
  work=$build/fuzz-corpus
fi

# Every crash found so far must stay fixed.
if ((${#regressions[@]})); then
  echo "fuzz: replaying ${#regressions[@]} regression inputs"
  if ! replay=$("$bin" "${common[@]}" "${regressions[@]}" 2>&1); then
    echo "$replay" >&2
    echo "fuzz: FAILED: a regression input fails again" >&2
    exit 1
  fi
fi

if [ "$seconds" -eq 0 ]; then
  echo "fuzz: ok (no fuzzing asked for)"
  exit 0
fi

artifacts=$build/fuzz-artifacts
mkdir -p "$work" "$artifacts"
cp -n "$corpus"/* "$work"/ 2>/dev/null || true
echo "fuzz: running $target for ${seconds}s over $work"
set +e
"$bin" "${common[@]}" "${dict[@]}" -max_total_time="$seconds" \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$work"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  echo "fuzz: FAILED (exit $rc); reproducer(s):" >&2
  ls -1 "$artifacts" >&2 || true
  echo "fuzz: minimise with: $bin -minimize_crash=1 -runs=10000 <file>; keep it in tests/fuzz/regressions/<name>.py (fuzz_remote: regressions_remote/<name>)" >&2
  exit 1
fi
echo "fuzz: ok"
