#!/usr/bin/env bash
# One command from a fresh machine to a real compile: dependencies, build, and
# pykc compiling the bundled example kernel file to cubins.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
"$root/build/bin/pykc" --version
# A real compile: both kernels of the example to cubins for two GPU generations.
"$root/build/bin/pykc" compile "$root/examples/saxpy.py" --arch sm_80,sm_90 -o "$root/build/saxpy"
ls -l "$root/build/saxpy"
