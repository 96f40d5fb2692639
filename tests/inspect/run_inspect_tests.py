#!/usr/bin/env python3
"""`pykc inspect` checks that golden files cannot express (docs/INSPECT.md).

    run_inspect_tests.py --pykc build/bin/pykc             # -o, errors, cache keys
    run_inspect_tests.py --pykc build/bin/pykc --lineinfo  # --lineinfo cubins in nvdisasm
    run_inspect_tests.py --pykc build/bin/pykc --sass      # tests/inspect/sass goldens

--lineinfo and --sass exit 77 (CTest's skip) when nvdisasm is not found.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIP = 77

KERNELS = '''from numba import cuda

N = 4


@cuda.jit(device=True)
def twice(v):
    return v + v


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = twice(x[i]) * a + N
'''

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(pykc, *args, env=None):
    return subprocess.run([pykc, *args], capture_output=True, text=True, timeout=120, env=env)


def find_nvdisasm(extra_dirs):
    candidates = [os.environ.get("PYKC_NVDISASM"), shutil.which("nvdisasm"), "/usr/local/cuda/bin/nvdisasm"]
    for d in extra_dirs:
        candidates.append(os.path.join(d, "nvidia", "cu13", "bin", "nvdisasm"))
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    return None


def outputs(pykc, tmp):
    src = os.path.join(tmp, "k.py")
    with open(src, "w") as f:
        f.write(KERNELS)
    # -o DIR: one file per form, named after the file (and kernel).
    out = os.path.join(tmp, "out")
    forms = "tokens,ast,types,llvm,llvm-opt,ptx,resources,cache-key"
    p = run(pykc, "inspect", src + "::scale", "--emit", forms, "-o", out)
    check(p.returncode == 0 and p.stdout == "", "-o writes nothing to stdout: " + p.stderr.strip())
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    want = sorted(["k.scale.tokens.txt", "k.scale.ast.txt", "k.scale.types.txt", "k.scale.sm_90.ll",
                   "k.scale.sm_90.opt.ll", "k.scale.sm_90.ptx", "k.scale.sm_90.resources.txt",
                   "k.scale.sm_90.cache-key.txt"])
    check(names == want, "-o file names: %s" % names)
    for n in names:
        check(os.path.getsize(os.path.join(out, n)) > 0, "-o %s is not empty" % n)
    p = run(pykc, "inspect", src, "--emit", "types,resources,cache-key", "--json", "-o", out)
    for n in ["k.types.json", "k.sm_90.resources.json", "k.sm_90.cache-key.json"]:
        try:
            with open(os.path.join(out, n)) as f:
                json.load(f)
            check(True, "--json -o %s parses" % n)
        except (OSError, ValueError) as e:
            check(False, "--json -o %s parses: %s" % (n, e))
    # The same text on stdout as in the file, and twice the same bytes.
    p1 = run(pykc, "inspect", src + "::scale", "--emit", "ptx")
    p2 = run(pykc, "inspect", src + "::scale", "--emit", "ptx")
    with open(os.path.join(out, "k.scale.sm_90.ptx")) as f:
        check(p1.stdout == p2.stdout == f.read(), "ptx is deterministic and -o holds what stdout shows")
    check("// %s:15  x[i] = twice(x[i]) * a + N" % src in p1.stdout, "ptx shows the Python line")
    # Errors: unknown form and arch (2), nvdisasm missing (3, says how to get it).
    check(run(pykc, "inspect", src, "--emit", "bytecode").returncode == 2, "unknown --emit: status 2")
    check(run(pykc, "inspect", src, "--emit", "ptx", "--arch", "sm_50").returncode == 2, "bad --arch: status 2")
    check(run(pykc, "inspect", src, "--emit", "types", "-Wbogus").returncode == 2, "unknown -W: status 2")
    env = dict(os.environ, PYKC_NVDISASM=os.path.join(tmp, "no-such-nvdisasm"))
    p = run(pykc, "inspect", src, "--emit", "sass", env=env)
    check(p.returncode == 3 and "pip install nvidia-cuda-nvdisasm" in p.stderr,
          "no nvdisasm: status 3 and how to get it: " + p.stderr.strip())
    # Cache keys: comments, blank lines and spacing do not count; code, the
    # device function, module constants, -D, arch and options do.
    def key(text, *extra):
        path = os.path.join(tmp, "key.py")
        with open(path, "w") as f:
            f.write(text)
        p = run(pykc, "inspect", path + "::scale", "--emit", "cache-key", "--json", *extra)
        if p.returncode != 0:
            return "error: " + p.stderr
        return json.loads(p.stdout)["kernels"][0]["key"]
    base = key(KERNELS)
    check(re.fullmatch(r"[0-9a-f]{64}", base) is not None, "the key is 64 hex digits")
    cosmetic = KERNELS.replace("    i = cuda.grid(1)\n", "    # the index\n\n    i  =  cuda.grid( 1 )\n")
    check(key(cosmetic) == base, "comments, blank lines and spacing leave the key alone")
    check(key(KERNELS.replace("v + v", "v * 2")) != base, "a device function edit changes the key")
    check(key(KERNELS.replace("N = 4", "N = 5")) != base, "a module constant changes the key")
    check(key(KERNELS, "-D", "N=5") != base, "-D changes the key")
    check(key(KERNELS, "--arch", "sm_90a") != base, "sm_90a is not sm_90")
    check(key(KERNELS, "--use-fast-math") != base, "--use-fast-math changes the key")
    check(key(KERNELS + "\n\ndef host():\n    return 1\n") == base, "host functions leave the key alone")


def lineinfo(pykc, tmp, pydeps):
    nvdisasm = find_nvdisasm(pydeps)
    if nvdisasm is None:
        print("SKIP: nvdisasm not found (pip install nvidia-cuda-nvdisasm, or the CUDA toolkit; "
              "or set PYKC_NVDISASM)")
        return SKIP
    src = os.path.join(tmp, "k.py")
    with open(src, "w") as f:
        f.write(KERNELS)
    out = os.path.join(tmp, "out")
    p = run(pykc, "compile", src, "--lineinfo", "-o", out)
    check(p.returncode == 0, "compile --lineinfo: " + p.stderr.strip())
    cubin = os.path.join(out, "k.sm_90.cubin")
    d = subprocess.run([nvdisasm, "--print-line-info", cubin], capture_output=True, text=True)
    check(d.returncode == 0, "nvdisasm --print-line-info runs: " + d.stderr.strip())
    lines = set(int(n) for n in re.findall(r'File "%s", line (\d+)' % re.escape(src), d.stdout))
    check({13, 14, 15} <= lines, "the cubin maps code to k.py lines 13-15 (found %s)" % sorted(lines))
    # The device function is inlined: nvdisasm names its line too.
    check(8 in lines, "the inlined device function's line 8 is in the table (found %s)" % sorted(lines))
    return 0


def sass_goldens(pykc, pydeps):
    env = dict(os.environ)
    p = run(pykc, "inspect", os.path.join(HERE, "sass", "sass.py"), "--emit", "sass")
    if p.returncode == 3:
        print("SKIP: " + p.stderr.strip())
        return SKIP
    return subprocess.call([sys.executable, os.path.join(ROOT, "tests", "golden_runner.py"),
                            "--pykc", pykc, os.path.join(HERE, "sass")], env=env)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pykc", required=True)
    ap.add_argument("--lineinfo", action="store_true", help="check --lineinfo cubins with nvdisasm")
    ap.add_argument("--sass", action="store_true", help="run the tests/inspect/sass goldens")
    ap.add_argument("--pydeps", action="append", default=[os.path.join(ROOT, "build", "pydeps")],
                    help="pip --target folders that may hold nvdisasm")
    args = ap.parse_args()
    pykc = os.path.abspath(args.pykc)
    with tempfile.TemporaryDirectory(prefix="pykc-inspect-") as tmp:
        if args.sass:
            return sass_goldens(pykc, args.pydeps)
        if args.lineinfo:
            rc = lineinfo(pykc, tmp, args.pydeps)
            if rc == SKIP:
                return SKIP
        else:
            outputs(pykc, tmp)
    print("%d failed" % len(failures) if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
