"""``python -m pykc run app.py [args]``: run a numba.cuda program unchanged, with pykc
compiling its kernels (``import numba`` / ``from numba import cuda`` give pykc's modules;
see pykc._hook). ``python -m pykc run -m package.module [args]`` runs a module.

``python -m pykc compile|parse|inspect|cache|header ...`` runs the pykc executable
installed with the package (the wheel's pykc/bin/pykc), as the ``pykc`` command does.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys


# The executable's own commands (`pykc --help` lists them).
COMPILER_COMMANDS = ("parse", "compile", "inspect", "cache", "header", "--version")


def compiler_executable() -> str:
    """$PYKC_EXECUTABLE, the package's bin/pykc (a wheel), else a source tree's
    build/bin/pykc; an empty string when there is none."""
    if os.environ.get("PYKC_EXECUTABLE"):
        return os.environ["PYKC_EXECUTABLE"]
    here = os.path.dirname(os.path.abspath(__file__))
    for place in (os.path.join(here, "bin", "pykc"),
                  os.path.join(here, "..", "..", "build", "bin", "pykc")):
        if os.access(place, os.X_OK):
            return os.path.normpath(place)
    return ""


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in COMPILER_COMMANDS:
        exe = compiler_executable()
        if not exe:
            print("python -m pykc: error: the pykc executable is not installed with this "
                  "package (pykc/bin/pykc); set PYKC_EXECUTABLE to it", file=sys.stderr)
            return 3
        sys.stdout.flush()
        os.execv(exe, [exe, *argv])
    parser = argparse.ArgumentParser(
        prog="python -m pykc",
        description="pykc's Python front door. `run` executes a program written for "
                    "numba.cuda with pykc as its compiler: its `numba` imports give "
                    "pykc's modules, its kernels compile in this process through libpykc. "
                    "The compiler's commands (" + ", ".join(COMPILER_COMMANDS[:-1]) + ") run "
                    "the pykc executable.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a numba.cuda program on pykc",
                         description="Run PROGRAM (a file, or -m MODULE) as __main__ with "
                                     "`numba` imports mapped to pykc.")
    run.add_argument("-m", dest="module", help="run a module (as python -m does)")
    run.add_argument("program", nargs="?", help="the program file")
    run.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    sub.add_parser("version", help="print pykc's version and its compiler library's")
    ns = parser.parse_args(argv)
    if ns.command == "version":
        from . import __version__
        from ._compiler import compiler
        print(f"pykc {__version__} (libpykc {compiler().version}, "
              f"{compiler().library_path})")
        return 0
    from ._hook import install
    if ns.module is None and ns.program is None:
        parser.error("run: give a program file or -m MODULE")
    install()
    # Child interpreters of the program get the same mapping (pykc/_run_site).
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [os.path.join(here, "_run_site"), os.path.dirname(here)]
    if os.environ.get("PYTHONPATH"):
        paths.append(os.environ["PYTHONPATH"])
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)
    os.environ["PYKC_RUN"] = "1"
    if ns.module is not None:
        args = ([ns.program] if ns.program else []) + ns.args
        sys.argv = [ns.module, *args]
        runpy.run_module(ns.module, run_name="__main__", alter_sys=True)
        return 0
    if not os.path.exists(ns.program):
        print(f"python -m pykc run: error: no such file {ns.program!r}", file=sys.stderr)
        return 2
    sys.argv = [ns.program, *ns.args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(ns.program)))
    runpy.run_path(ns.program, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
