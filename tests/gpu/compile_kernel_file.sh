#!/usr/bin/env bash
# Compiles one kernel file of the GPU suite: `pykc compile SRC --arch ARCH -o OUT [EXTRA...]`
# plus the arguments of the file's `# pykc-compile: ...` lines (a kernel written as cuTile's
# samples write them takes its types from --sig and its specialisations from --const).
# Those lines are split on whitespace, without quoting: write a --sig with no spaces.
#
#     bash tests/gpu/compile_kernel_file.sh PYKC SRC ARCH OUT [EXTRA...]
set -euo pipefail
pykc=${1:?usage: compile_kernel_file.sh PYKC SRC ARCH OUT}
src=${2:?}
arch=${3:?}
out=${4:?}
shift 4
args=("$@")
while IFS= read -r line; do
  read -ra more <<< "${line#"# pykc-compile:"}"
  args+=("${more[@]}")
done < <(grep '^# pykc-compile:' "$src" || true)
exec "$pykc" compile "$src" --arch "$arch" -o "$out" "${args[@]}"
