#!/usr/bin/env bash
# Runs every test: dependencies and build first (idempotent), then CTest
# (GoogleTests, golden files, the CPython differential sample, Python tests,
# a short fuzz run). GPU tests skip here with a message unless a GPU is present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
export PYTHONPATH="$root/build/pydeps${PYTHONPATH:+:$PYTHONPATH}"
# Tests that compile through the kernel cache use one inside the build folder.
export PYKC_CACHE_DIR="$root/build/test-cache"
rm -rf "$PYKC_CACHE_DIR"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)"
