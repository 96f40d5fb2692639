"""The pykc command of a pip install (python/_pykc_cli.py) and `python -m pykc`'s
compiler commands: both run the pykc executable with the same arguments and exit
status. Here the executable is the source tree's build/bin/pykc (a wheel's is
pykc/bin/pykc, checked by tests/install/check_wheel.py); skipped when it is not built.
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYTHON = os.path.join(ROOT, "python")
EXE = os.path.join(ROOT, "build", "bin", "pykc")

pytestmark = pytest.mark.skipif(not os.access(EXE, os.X_OK), reason="build/bin/pykc is not built")


def python(*args, env=None):
    full = dict(os.environ, PYTHONPATH=PYTHON + os.pathsep + os.environ.get("PYTHONPATH", ""))
    full.pop("PYKC_EXECUTABLE", None)
    full.update(env or {})
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=full)


def test_console_entry_runs_the_executable_without_importing_pykc():
    r = python("-c", "import sys, _pykc_cli; print(_pykc_cli.executable()); "
                     "print('pykc' in sys.modules, 'numpy' in sys.modules)")
    assert r.returncode == 0, r.stderr
    exe, imported = r.stdout.splitlines()
    assert os.path.samefile(exe, EXE)
    assert imported == "False False"
    r = python("-m", "_pykc_cli", "--help")
    assert r.returncode == 0 and "pykc: an ahead-of-time compiler" in r.stdout


def test_console_entry_passes_arguments_and_exit_status(tmp_path):
    out = tmp_path / "saxpy"
    r = python("-m", "_pykc_cli", "compile", os.path.join(ROOT, "examples", "saxpy.py"),
               "--arch", "sm_90", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert (out / "saxpy.sm_90.cubin").exists() and (out / "manifest.json").exists()
    r = python("-m", "_pykc_cli", "compile", "--arch", "sm_1")
    assert r.returncode == 2


def test_console_entry_honours_pykc_executable_and_says_when_missing(tmp_path):
    r = python("-m", "_pykc_cli", "--version", env={"PYKC_EXECUTABLE": EXE})
    assert r.returncode == 0 and "pykc" in r.stdout
    r = python("-c", "import _pykc_cli, sys; sys.argv = ['pykc']; sys.exit(_pykc_cli.main())",
               env={"PYKC_EXECUTABLE": str(tmp_path / "none")})
    assert r.returncode != 0


def test_python_m_pykc_runs_compiler_commands(tmp_path):
    out = tmp_path / "saxpy"
    r = python("-m", "pykc", "compile", os.path.join(ROOT, "examples", "saxpy.py"), "--arch", "sm_80",
               "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert (out / "saxpy.sm_80.cubin").exists()
    r = python("-m", "pykc", "header", str(out))
    assert r.returncode == 0 and "saxpy_saxpy_launch" in r.stdout
    r = python("-m", "pykc", "--help")
    assert r.returncode == 0 and "compile" in r.stdout and "run" in r.stdout
    r = python("-m", "pykc", "parse", str(tmp_path / "missing.py"))
    assert r.returncode == 3
