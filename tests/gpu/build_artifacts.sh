#!/usr/bin/env bash
# Compiles every kernel file of the GPU suite (tests/gpu/kernels/*.py) for one arch into
# ROOT/<name>/, the layout tests/gpu/run_gpu_tests.py reads. Run it on any machine with
# pykc built (no GPU needed), then carry ROOT to the GPU machine:
#
#     bash tests/gpu/build_artifacts.sh .gpu/run1 [sm_90] [PYKC]
#     python3 tests/gpu/run_gpu_tests.py .gpu/run1          # on the GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: build_artifacts.sh ROOT [ARCH] [PYKC]}
arch=${2:-sm_90}
pykc=${3:-$root/build/bin/pykc}
mkdir -p "$out"
for src in "$root"/tests/gpu/kernels/*.py; do
  name=$(basename "$src" .py)
  rm -rf "${out:?}/$name"
  # A file's `# pykc-compile:` lines add --sig/--const arguments (compile_kernel_file.sh).
  bash "$root/tests/gpu/compile_kernel_file.sh" "$pykc" "$src" "$arch" "$out/$name" --no-cache
  echo "compiled $name"
done
