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
PYKC="${PYKC:-$root/build/bin/pykc}"
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

# Experiment (docs/INTEROP.md, "Removing the call"), not a pykc feature: clang-19 compiles
# poly.cu to LLVM IR, which is linked into pykc's own LLVM module and optimised with it;
# the C++ is then inlined like the Python version. The cubin replaces the one in a copy
# of ptx/ (same kernels, same parameters: the manifest still describes it).
if command -v clang++-19 >/dev/null && [ -x /usr/local/cuda/bin/ptxas ]; then
  exp="$root/build-bench/interop-clang"
  mkdir -p "$exp"
  "$PYKC" compile bench/interop/call_kernels.py --arch sm_90 --no-cache --phase llvm -o "$exp"
  clang++-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
    -D'__device__=__attribute__((device))' -O3 -emit-llvm -c bench/interop/poly.cu \
    -o "$exp/poly.bc" 2>/dev/null
  llvm-link-19 "$exp/call_kernels.sm_90.ll" "$exp/poly.bc" -o "$exp/linked.bc"
  opt-19 -O3 "$exp/linked.bc" -o "$exp/linked.opt.bc"
  llc-19 -mcpu=sm_90 -mattr=+ptx85 "$exp/linked.opt.bc" -o "$exp/linked.ptx"
  cp -r "$art/ptx" "$art/clang"
  /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 "$exp/linked.ptx" -o "$art/clang/call_kernels.sm_90.cubin"
  cp "$exp/linked.ptx" "$art/clang/call_kernels.sm_90.ptx"
  echo "clang experiment: $art/clang"
fi
