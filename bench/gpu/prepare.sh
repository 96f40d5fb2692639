#!/usr/bin/env bash
# Builds what run_gpu_bench.py needs, here (no GPU needed), into .gpu/bench/ (git-ignored),
# which the device call carries: pykc output folders and nvcc cubins of the eight GPU
# benchmark kernels, and the spin kernel. Also writes SASS of both into build-bench/sass/.
#
#   bench/gpu/prepare.sh        then on the device machine (carry: [".gpu/bench"]):
#   python3 bench/gpu/run_gpu_bench.py --art .gpu/bench --out $OUT
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
PYKC="${PYKC:-$root/build-bench/pykc}"
NVCC="${NVCC:-nvcc}"
CUOBJDUMP="${CUOBJDUMP:-$(command -v cuobjdump || echo "$root/build-bench/venv/lib/python3.11/site-packages/nvidia/cu13/bin/cuobjdump")}"
art="$root/.gpu/bench"
rm -rf "$art"
mkdir -p "$art/pykc" "$art/nvcc" "$root/build-bench/sass"
for name in k01_saxpy k02_block_sum k03_matmul k04_softmax k05_black_scholes k06_stencil \
            k07_histogram k08_transpose; do
    "$PYKC" compile "bench/compile/kernels/$name.py" --arch sm_90 -o "$art/pykc/$name" --no-cache
    "$NVCC" -cubin -O3 -arch=sm_90 "bench/compile/kernels/$name.cu" -o "$art/nvcc/$name.cubin"
    "$CUOBJDUMP" -sass "$art/pykc/$name/$name.sm_90.cubin" > "build-bench/sass/$name.pykc.sass"
    "$CUOBJDUMP" -sass "$art/nvcc/$name.cubin" > "build-bench/sass/$name.nvcc.sass"
done
"$NVCC" -cubin -O3 -arch=sm_90 bench/gpu/spin.cu -o "$art/nvcc/spin.cubin"
# The two of them that alias versioning changes (docs/compile.md), also without it:
# run_gpu_bench.py times exp_pykc/<file>/<variant>/ as `pykc_<variant>`.
for name in k01_saxpy k04_softmax; do
    "$PYKC" compile "bench/compile/kernels/$name.py" --arch sm_90 --no-cache --no-alias-versioning \
        -o "$art/exp_pykc/$name/no_alias_versioning"
    "$CUOBJDUMP" -sass "$art/exp_pykc/$name/no_alias_versioning/$name.sm_90.cubin" \
        > "build-bench/sass/$name.pykc_no_alias_versioning.sass"
done

# Experiment (docs/BENCHMARKS.md): pykc's matmul PTX with its shared arrays aligned to 16
# bytes, linked to a cubin by nvJitLink with pykc's options (-arch=sm_90 -O3).
mkdir -p "$art/exp"
sed 's/\.shared \.align 4 /.shared .align 16 /' "$art/pykc/k03_matmul/k03_matmul.sm_90.ptx" \
    > "$root/build-bench/k03_matmul_align16.ptx"
g++ -O1 -std=c++17 -I/usr/local/cuda/include bench/gpu/nvjitlink_ptx.cpp -L/usr/local/cuda/lib64 \
    -lnvJitLink -Wl,-rpath,/usr/local/cuda/lib64 -o "$root/build-bench/nvjitlink_ptx"
"$root/build-bench/nvjitlink_ptx" "$root/build-bench/k03_matmul_align16.ptx" \
    "$art/exp/k03_matmul_align16.cubin" -arch=sm_90 -O3
"$CUOBJDUMP" -sass "$art/exp/k03_matmul_align16.cubin" > build-bench/sass/k03_matmul.pykc_align16.sass
# ... and with nsw on pykc's int64 add/sub/mul (as numba emits them), through opt-19/llc-19.
if command -v opt-19 >/dev/null && command -v llc-19 >/dev/null; then
    x="$root/build-bench/exp_matmul"
    "$PYKC" compile bench/compile/kernels/k03_matmul.py --emit llvm -o "$x" --no-cache
    sed -E 's/= (add|sub|mul) i64/= \1 nsw i64/' "$x/k03_matmul.sm_90.ll" > "$x/nsw.ll"
    opt-19 -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 "$x/nsw.ll" -S -o "$x/nsw_opt.ll"
    llc-19 -O3 -mcpu=sm_90 -mattr=+ptx85 "$x/nsw_opt.ll" -o "$x/nsw.ptx"
    sed 's/\.shared \.align 4 /.shared .align 16 /' "$x/nsw.ptx" > "$x/nsw_a16.ptx"
    "$root/build-bench/nvjitlink_ptx" "$x/nsw_a16.ptx" "$art/exp/k03_matmul_align16_nsw.cubin" -arch=sm_90 -O3
    "$CUOBJDUMP" -sass "$art/exp/k03_matmul_align16_nsw.cubin" > build-bench/sass/k03_matmul.pykc_align16_nsw.sass
fi
# Counted-loop rewrites of softmax and histogram (bench/gpu/experiments/), compiled by pykc.
for e in softmax_counted histogram_counted; do
    "$PYKC" compile "bench/gpu/experiments/$e.py" --arch sm_90 -o "$art/exp/$e" --no-cache
    "$CUOBJDUMP" -sass "$art/exp/$e/$e.sm_90.cubin" > "build-bench/sass/$e.pykc.sass"
done
{ git log -1 --format=%h; cat build-bench/pykc.commit 2>/dev/null || true; "$PYKC" --version; "$NVCC" --version | tail -1; } > "$art/BUILD_INFO"
du -sh "$art"
