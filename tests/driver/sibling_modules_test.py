#!/usr/bin/env python3
"""Helpers pasted from sibling modules (docs/compile.md, driver/sibling_modules.cpp) on bad
and odd module trees: import cycles, a module importing itself, a chain deeper than the
paste follows, helper modules that do not parse, missing names, and a few hundred random
mutations of a helper module. pykc must end every compile with exit 0 or 1 and
diagnostics (never a signal, a hang or an internal error). Then the cache: editing a
helper recompiles its caller (the cubin changes), and the same tree gives the same bytes.
CPU only.

    tests/driver/sibling_modules_test.py --pykc build/bin/pykc
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from line_mutants import check_mutants  # noqa: E402

MAIN = '''import cuda.tile as ct
from helpers import scaled

ConstInt = ct.Constant[int]


@ct.kernel
def k(x: "float32[::1]", TILE: ConstInt = 16):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=scaled(t))
'''

HELPERS = '''import cuda.tile as ct
from .more import FACTOR

BIAS = 1.5


def _inner(t):
    return t * FACTOR


def scaled(t):
    """A docstring."""
    return _inner(t) + BIAS
'''

MORE = '''FACTOR = 2.0
'''

# numba.cuda with a sibling module imported as an object (stumpy's `from . import core`,
# NeMo's `from nemo...utils import rnnt_helper`), itself reading a module object.
SIMT_MAIN = '''from numba import cuda

from pkg.utils import core


@cuda.jit("void(float64[::1])")
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = core.clamp(x[i]) + core.OFFSET
'''

CORE = '''from numba import cuda

from pkg.utils import limits

OFFSET = 0.5


@cuda.jit(device=True)
def clamp(v):
    return min(max(v, -limits.LIMIT), limits.LIMIT)
'''

LIMITS = '''LIMIT = 4.0
'''


def write(folder, files):
    for name, text in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def compile_check(pykc, folder, *extra, phase="check"):
    args = [pykc, "compile", os.path.join(folder, "main.py"), "--no-cache"]
    if phase:
        args += ["--phase", phase]
    r = subprocess.run(args + list(extra), capture_output=True, text=True, timeout=60)
    return r


def expect_clean_end(what, r, failures, want_rc=None):
    bad = r.returncode not in (0, 1) or "internal" in r.stderr.lower()
    if want_rc is not None and r.returncode != want_rc:
        bad = True
    if r.returncode == 1 and "error:" not in r.stderr:
        bad = True  # a failure must say why
    print(f"{'FAIL' if bad else 'ok  '} {what}: rc {r.returncode}")
    if bad:
        print(r.stderr[-2000:])
        failures.append(what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    a = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory(prefix="pykc-sibling-") as tmp:
        def case(name, files, want_rc=None, check=None):
            folder = os.path.join(tmp, name)
            write(folder, files)
            r = compile_check(a.pykc, folder)
            expect_clean_end(name, r, failures, want_rc)
            if check is not None and not check(r):
                print(f"FAIL {name}: unexpected output\n{r.stderr[-1500:]}")
                failures.append(name + " (output)")

        case("chain of three modules", {"main.py": MAIN, "helpers.py": HELPERS, "more.py": MORE}, 0)
        # helpers <-> more import each other.
        case("import cycle", {"main.py": MAIN,
                              "helpers.py": HELPERS,
                              "more.py": "from .helpers import BIAS\nFACTOR = 2.0\nOTHER = BIAS\n"}, 0)
        case("a module importing itself", {"main.py": MAIN,
                                           "helpers.py": HELPERS.replace("from .more import FACTOR",
                                                                         "from .helpers import FACTOR")},
             1, lambda r: "FACTOR" in r.stderr)
        # Twelve modules, each taking its constant from the next: past the paste's depth.
        chain = {"main.py": MAIN, "helpers.py": HELPERS.replace("from .more import FACTOR",
                                                               "from .m0 import FACTOR")}
        for i in range(12):
            chain[f"m{i}.py"] = (f"from .m{i + 1} import FACTOR\n" if i < 11 else "FACTOR = 3.0\n")
        case("a chain deeper than the paste follows", chain, None)
        case("a helper module that does not parse", {"main.py": MAIN, "helpers.py": "def scaled(t:\n"},
             1, lambda r: "scaled" in r.stderr)
        case("a name the module does not define", {"main.py": MAIN,
                                                   "helpers.py": "import cuda.tile as ct\nX = 1\n"},
             1, lambda r: "scaled" in r.stderr)
        case("a package, not a file", {"main.py": MAIN, "helpers/__init__.py": HELPERS, "more.py": MORE},
             1, lambda r: "scaled" in r.stderr)
        case("a conflict", {"main.py": MAIN.replace("ConstInt =", "BIAS = 7\nConstInt =", 1),
                            "helpers.py": HELPERS, "more.py": MORE},
             1, lambda r: "module-conflict" in r.stderr or "means one thing" in r.stderr)
        case("a binary helper module", {"main.py": MAIN, "helpers.py": "\x00\x01def scaled(t)\n"}, 1)

        # Module objects through --python-path and $PYTHONPATH (the package root elsewhere).
        pkg = {"root/pkg/utils/core.py": CORE, "root/pkg/utils/limits.py": LIMITS,
               "main.py": SIMT_MAIN}
        folder = os.path.join(tmp, "module objects")
        write(folder, pkg)
        root = os.path.join(folder, "root")
        r = compile_check(a.pykc, folder, "--python-path", root, phase="cubin")
        expect_clean_end("module objects through --python-path", r, failures, 0)
        r = compile_check(a.pykc, folder)
        expect_clean_end("module objects without the path", r, failures, 1)
        if "core" not in r.stderr:
            failures.append("module objects without the path (message)")
        env = dict(os.environ, PYTHONPATH=root)
        r = subprocess.run([a.pykc, "compile", os.path.join(folder, "main.py"), "--no-cache", "--phase", "check"],
                           capture_output=True, text=True, timeout=60, env=env)
        expect_clean_end("module objects through $PYTHONPATH", r, failures, 0)

        # Random mutations of a module object's module.
        rng = random.Random(20261205)
        core_lines = CORE.splitlines(keepends=True)
        def compile_core(text, n):
            write(folder, {"root/pkg/utils/core.py": text})
            return compile_check(a.pykc, folder, "--python-path", root)
        check_mutants(core_lines, rng, 120, compile_core, failures, label="module-object mutant", ops=3)

        # Random mutations of the helper module: lines dropped, doubled, swapped, cut.
        rng = random.Random(20261204)
        lines = HELPERS.splitlines(keepends=True)
        folder = os.path.join(tmp, "mutants")
        write(folder, {"main.py": MAIN, "more.py": MORE})
        def compile_helpers(text, n):
            write(folder, {"helpers.py": text})
            return compile_check(a.pykc, folder)
        check_mutants(lines, rng, 250, compile_helpers, failures)

        # The cache sees the pasted text: a helper's edit recompiles its caller.
        folder = os.path.join(tmp, "cache")
        write(folder, {"main.py": MAIN, "helpers.py": HELPERS, "more.py": MORE})
        env = dict(os.environ, PYKC_CACHE_DIR=os.path.join(tmp, "cache-dir"))

        def cubin(tag):
            out = os.path.join(tmp, "out-" + tag)
            subprocess.run([a.pykc, "compile", os.path.join(folder, "main.py"), "--arch", "sm_90",
                            "-o", out], check=True, capture_output=True, env=env, timeout=120)
            with open(os.path.join(out, "main.sm_90.cubin"), "rb") as f:
                return f.read()
        first, again = cubin("a"), cubin("b")
        write(folder, {"more.py": "FACTOR = 4.0\n"})
        edited = cubin("c")
        ok = first == again and edited != first
        print(f"{'ok  ' if ok else 'FAIL'} cache: same tree same bytes, an edited helper recompiles")
        if not ok:
            failures.append("cache")
    if failures:
        print(f"sibling_modules_test: {len(failures)} failed: " + ", ".join(failures))
        return 1
    print("sibling_modules_test: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
