#!/usr/bin/env bash
# Tile bandwidth with the array facts ct.launch gives pykc (cuTile's specialisation bits:
# 16-byte aligned bases, 16-divisible extents and strides), for several pykc builds on
# the same inputs: bench/gpu/tile_bandwidth_kernels.py with each annotation extended by
# `.assume(...)`, compiled by each PYKC into ROOT/<name>/, then timed by tile_bandwidth.py
# (cases whose extents break the facts are skipped: the instance refuses them). NO_RUN=1
# compiles only.
#
#   bash bench/gpu/tile_facts.sh ROOT NAME=PYKC [NAME=PYKC...] [-- tile_bandwidth.py options]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: tile_facts.sh ROOT NAME=PYKC... [-- OPTIONS]}; shift
mkdir -p "$root/src"
sed -E -e 's/"(float(32|16))\[::1\]"/"\1[::1].assume(alignment=16, shape_divisible_by=16)"/g' \
       -e 's/"float32\[:, ::1\]"/"float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(1, 16))"/g' \
       -e 's/"float16\[:, ::1\]"/"float16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 1), shape_divisible_by=(1, 16))"/g' \
       "$here/tile_bandwidth_kernels.py" > "$root/src/tile_bandwidth_kernels.py"
grep -q 'assume' "$root/src/tile_bandwidth_kernels.py"
roots=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  name=${1%%=*}; pykc=${1#*=}; shift
  "$pykc" compile "$root/src/tile_bandwidth_kernels.py" --arch sm_90 --no-cache \
      -o "$root/$name/tile_bandwidth_kernels" --const TILE=1024 --const TILE=2048 --const TILE=4096
  roots+=("$root/$name")
done
[ "${1:-}" = "--" ] && shift
[ -n "${NO_RUN:-}" ] || python3 "$here/tile_bandwidth.py" "${roots[@]}" "$@"
