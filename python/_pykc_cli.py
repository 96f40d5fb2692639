"""The ``pykc`` command a pip install puts on PATH: runs the compiler executable
shipped inside the pykc package (``site-packages/pykc/bin/pykc``) with the same
arguments and exit status.

A module of its own, outside the package, so that starting it imports neither
``pykc`` nor NumPy: the command costs one Python start-up, then pykc's own time.
``$PYKC_EXECUTABLE`` names another executable (a source build's build/bin/pykc).
"""

import importlib.util
import os
import sys


def executable() -> str:
    """The pykc executable: $PYKC_EXECUTABLE, else the package's bin/pykc, else a
    source tree's build/bin/pykc beside python/ (an empty string when none exists)."""
    env = os.environ.get("PYKC_EXECUTABLE")
    if env:
        return env
    spec = importlib.util.find_spec("pykc")
    places = []
    for folder in (spec.submodule_search_locations or []) if spec else []:
        places.append(os.path.join(folder, "bin", "pykc"))
        places.append(os.path.join(folder, "..", "..", "build", "bin", "pykc"))
    for place in places:
        if os.access(place, os.X_OK):
            return os.path.normpath(place)
    return ""


def main() -> int:
    exe = executable()
    if not exe or not os.access(exe, os.X_OK):
        print(f"pykc: error: the pykc executable {exe or '(pykc/bin/pykc)'} is not installed "
              "with this pykc package; set PYKC_EXECUTABLE to it", file=sys.stderr)
        return 3
    os.execv(exe, [exe, *sys.argv[1:]])
    return 3  # not reached: execv replaces the process or raises


if __name__ == "__main__":
    sys.exit(main())
