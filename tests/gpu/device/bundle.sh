#!/usr/bin/env bash
# Packs what a GPU machine without a build needs to run pykc's GPU proofs: the pykc
# executable, its code generator libpykc_codegen.so (lib/, beside bin/: pykc opens it on
# a cache miss) and libpykc (stripped, xz), the launch extension, nvFatbin (`--fatbin`;
# CUDA 13.0 toolkits without it still run the fatbin proof), and the GPU suite's compiled
# kernel files. Nothing links spdlog or fmt as shared libraries any more.
#
#     bash tests/gpu/device/bundle.sh [OUT=.gpu/bundle] [ARCH=sm_90] [--corpus-only]
#     # carry OUT to the GPU machine, then from the repository root there:
#     bash tests/gpu/device/run.sh OUT MODE...      (MODE: tests realworld gpu bench cutile rowwise
#                                                    compilebench ...; run.sh lists them)
# Scripts and sources (bench/compile/gpu_host.py and its kernels among them) are not packed:
# they come with the repository's working tree, which travels to the GPU machine anyway.
# --corpus-only packs what the corpus modes need (vsnumba, vscutile: pykc's CLI and AOT loader,
# the code generator, nvFatbin, the launch extension), about 17 MB instead of 50: no
# libpykc (the JIT's library, about 10 MB as xz) and no GPU-suite kernel files (about 15
# MB), so that the bundle fits one device call beside little else (cuTile's .cutile, 60 MB,
# goes in a call of its own).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
corpus_only=0; args=()
for a in "$@"; do
  case $a in --corpus-only) corpus_only=1 ;; *) args+=("$a") ;; esac
done
set -- ${args[@]+"${args[@]}"}
out=${1:-$root/.gpu/bundle}
arch=${2:-sm_90}
build=$root/build
rm -rf "$out"; mkdir -p "$out/bin" "$out/lib"
strip -o "$out/bin/pykc" "$build/bin/pykc"
strip -o "$out/lib/libpykc_codegen.so" "$build/lib/libpykc_codegen.so"
[ $corpus_only = 1 ] || strip -o "$out/lib/libpykc.so" "$build/lib/libpykc.so"
cp "$build/lib/_launch.abi3.so" "$out/lib/"
# run.sh puts lib/ on LD_LIBRARY_PATH, where pykc's dlopen of libnvfatbin.so.13 finds it.
for nvfatbin in /usr/local/cuda/lib64/libnvfatbin.so.13 "$build/pydeps-cuda/nvidia/cu13/lib/libnvfatbin.so.13"; do
  if [ -f "$nvfatbin" ]; then cp -L "$nvfatbin" "$out/lib/"; break; fi
done
if [ $corpus_only = 1 ]; then
  xz -T2 -6 -f "$out/bin/pykc" "$out/lib/libpykc_codegen.so"
else
  xz -T2 -6 -f "$out/bin/pykc" "$out/lib/libpykc_codegen.so" "$out/lib/libpykc.so"
  bash "$root/tests/gpu/build_artifacts.sh" "$out/gpu" "$arch" "$build/bin/pykc" >/dev/null
fi
du -sh "$out"
