#!/usr/bin/env bash
# One command from a fresh machine to a real compile: dependencies, build, and
# pykc run on the bundled example kernel file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
"$root/build/bin/pykc" --version
"$root/build/bin/pykc" parse "$root/examples/saxpy.py" --dump-ast | head -c 2000
echo
