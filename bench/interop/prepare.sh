#!/usr/bin/env bash
# Builds what run_interop_bench.py needs, here (no GPU needed), into .gpu/interop/
# (git-ignored; the device call carries it): bench/interop/call_kernels.py compiled with
# the C++ linked as PTX (ptx/) and as LTO-IR (lto/), and their SASS.
#
#   bench/interop/prepare.sh          then on the GPU machine (carry: [".gpu/interop"]):
#   python3 bench/interop/run_interop_bench.py .gpu/interop
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
PYKC="${PYKC:-$root/build/tools/pykc}"
art="$root/.gpu/interop"
rm -rf "$art"
"$PYKC" compile bench/interop/call_kernels.py --arch sm_90 --no-cache -o "$art/ptx"
"$PYKC" compile bench/interop/call_kernels.py --arch sm_90 --no-cache --lto -o "$art/lto"
if [ -n "${PYKC_NVDISASM:-}" ] || command -v nvdisasm >/dev/null; then
  for v in ptx lto; do
    flag=""; [ "$v" = lto ] && flag="--lto"
    "$PYKC" inspect bench/interop/call_kernels.py --emit sass $flag \
      -o "$art/sass-$v" >/dev/null 2>&1 || true
  done
fi
ls -R "$art"
