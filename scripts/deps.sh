#!/usr/bin/env bash
# Installs what pykc needs to build and test, from Debian's packages and PyPI.
# Idempotent: does nothing when everything is present. Needs root (or sudo).
set -euo pipefail

packages=(cmake g++ make ninja-build llvm-19-dev libzstd-dev libcli11-dev libspdlog-dev
          libfmt-dev libgtest-dev libgmock-dev nlohmann-json3-dev clang-19
          libclang-rt-19-dev python3-dev hyperfine nginx redis-server
          libcurl4-openssl-dev libssl-dev libsodium-dev openssl pkg-config)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # nginx and redis-server are only started by the tests, on loopback ports of their
  # own: keep their packages from starting system services at install time (a
  # policy-rc.d that refuses, unless the image already has one).
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod +x "$policy"
  fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  [ -z "$policy" ] || $sudo rm -f "$policy"
fi

if [ ! -d /usr/local/cuda/lib64 ] || [ ! -e /usr/local/cuda/nvvm/libdevice/libdevice.10.bc ]; then
  echo "deps: error: the CUDA 13 toolkit is expected at /usr/local/cuda" >&2
  exit 3
fi

# Python packages for the test suite, kept inside the checkout.
root=$(cd "$(dirname "$0")/.." && pwd)
pydeps="$root/build/pydeps"
if [ ! -f "$pydeps/.ok" ]; then
  python3 -m pip install -q --disable-pip-version-check --target "$pydeps" pytest numpy
  touch "$pydeps/.ok"
fi
# ml_dtypes: the 8-bit float reference of tile_sim's float8 cases.
if [ ! -d "$pydeps/ml_dtypes" ]; then
  python3 -m pip install -q --disable-pip-version-check --no-deps --target "$pydeps" ml_dtypes
fi
# The real numba, apart (its NumPy pin must not change the suite's): one pytest runs a
# program that uses numba outside CUDA under `python -m pykc run`. Optional.
if [ ! -f "$root/build/pydeps-numba/.ok" ]; then
  python3 -m pip install -q --disable-pip-version-check --target "$root/build/pydeps-numba" numba &&
    touch "$root/build/pydeps-numba/.ok" || echo "deps: numba not installed (one pytest skips)"
fi

# nvFatbin for `pykc compile --fatbin` (the CUDA 13.0 toolkit here lacks it) and
# cuobjdump for the tests that list a fatbin's contents: NVIDIA's wheels, kept apart
# from pydeps (pip --target would not merge their nvidia/ folder with nvdisasm's).
cudadeps="$root/build/pydeps-cuda"
if [ ! -f "$cudadeps/.ok" ]; then
  if [ -e /usr/local/cuda/include/nvFatbin.h ] && [ -e /usr/local/cuda/lib64/libnvfatbin.so.13 ]; then
    wheels=()
  else
    wheels=("nvidia-nvfatbin==13.0.*")
  fi
  command -v cuobjdump >/dev/null || [ -x /usr/local/cuda/bin/cuobjdump ] || wheels+=(nvidia-cuda-cuobjdump)
  if ((${#wheels[@]})); then
    python3 -m pip install -q --disable-pip-version-check --no-deps --target "$cudadeps" "${wheels[@]}"
  fi
  mkdir -p "$cudadeps" && touch "$cudadeps/.ok"
fi

# nvdisasm for `pykc inspect --emit sass` (not in every CUDA install): the PyPI
# package puts it in build/pydeps/nvidia/cu13/bin, where pykc looks for it.
# Optional: without it only `--emit sass` is unavailable.
if ! command -v nvdisasm >/dev/null && [ ! -x /usr/local/cuda/bin/nvdisasm ] &&
   [ ! -x "$pydeps/nvidia/cu13/bin/nvdisasm" ]; then
  python3 -m pip install -q --disable-pip-version-check --target "$pydeps" nvidia-cuda-nvdisasm ||
    echo "deps: warning: could not install nvidia-cuda-nvdisasm (--emit sass needs nvdisasm)" >&2
fi

# hiredis 1.3 with hiredis_ssl for the Redis client of the remote cache (rediss://, ACL
# AUTH): Debian 12's libhiredis-dev is 0.14, which has no TLS. Its release sources come
# from the sdist of hiredis-py, which vendors the C library whole (pinned by hash);
# cache/CMakeLists.txt compiles them into the remote plugin (no Makefile is run).
hiredis="$root/build/deps/hiredis"
if [ ! -f "$hiredis/.ok" ]; then
  tmp=$(mktemp -d)
  python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
    -d "$tmp" "hiredis==3.2.1"
  echo "5a5f64479bf04dd829fe7029fad0ea043eac4023abc6e946668cbbec3493a78d  $tmp/hiredis-3.2.1.tar.gz" |
    sha256sum -c --quiet -
  tar -xzf "$tmp/hiredis-3.2.1.tar.gz" -C "$tmp" hiredis-3.2.1/vendor/hiredis
  rm -rf "$hiredis" && mkdir -p "$(dirname "$hiredis")"
  mv "$tmp/hiredis-3.2.1/vendor/hiredis" "$hiredis"
  rm -rf "$tmp"
  grep -q "HIREDIS_MAJOR 1" "$hiredis/hiredis.h" && touch "$hiredis/.ok"
fi
