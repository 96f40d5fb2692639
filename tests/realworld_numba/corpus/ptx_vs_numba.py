#!/usr/bin/env python3
"""pykc's PTX and SASS beside numba-cuda's, per kernel signature of corpus.json, without a GPU.

For each `--sig` of the chosen corpus files: numba-cuda's PTX (`cuda.compile_ptx` of the
kernel's Python function, cc 9.0, the file imported as run_vs_numba.py does) and pykc's
(`pykc compile --emit ptx`), each assembled by `ptxas -arch=sm_90 -v`; prints registers,
spill bytes and SASS instruction counts (whole kernel and per kind: global loads, 64-bit
integer multiply-adds, calls, branches) side by side, and with --out DIR writes both PTX
and SASS texts there for diffing. numba-cuda must be importable (PYTHONPATH); ptxas and
nvdisasm come from /usr/local/cuda/bin, PATH or build/pydeps (scripts/deps.sh).

    PYTHONPATH=/tmp/nb python3 tests/realworld_numba/corpus/ptx_vs_numba.py \\
        --pykc build/bin/pykc --out /tmp/cmp multiblank _slice_rows
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus_import import import_corpus_file  # noqa: E402


def tool(name):
    """The CUDA toolkit's, else PATH's, else the NVIDIA wheel's that scripts/deps.sh installs."""
    p = os.path.join("/usr/local/cuda/bin", name)
    if os.path.exists(p):
        return p
    if shutil.which(name):
        return shutil.which(name)
    for deps in ("pydeps-cuda", "pydeps"):
        p = os.path.join(HERE, "..", "..", "..", "build", deps, "nvidia", "cu13", "bin", name)
        if os.path.exists(p):
            return p
    return name


def numba_ptx(entry, name, sig):
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    from numba import cuda
    from numba.core import sigutils
    import numba.cuda.dispatcher as nd
    # Device functions are compiled for the current device's compute capability, which
    # asks the driver: without a GPU, say 9.0.
    nd.get_current_device = lambda: type("Device", (), {"compute_capability": (9, 0)})()
    mod, _ = import_corpus_file(
        os.path.join(HERE, entry["file"]), os.path.join(HERE, entry["file"].split("/")[0]),
        [os.path.join(HERE, p) for p in entry.get("python_path", [])],
        keep=("numba", "numpy", "math", "cmath", "os", "sys"))
    for d in entry.get("defines", []):
        k, v = d.split("=", 1)
        import math
        setattr(mod, k, eval(v, {"np": np, "numpy": np, "math": math}))
    argtypes, _ = sigutils.normalize_signature("void(" + sig.partition("(")[2])
    fn = getattr(mod, name)
    fn = getattr(fn, "py_func", fn)
    ptx, _ = cuda.compile_ptx(fn, argtypes, cc=(9, 0))
    return ptx


def pykc_ptx(pykc, entry, sig, out):
    cmd = [pykc, "compile", os.path.join(HERE, entry["file"]), "--arch", "sm_90", "-o", out,
           "--no-cache", "--emit", "ptx", "--sig", sig, "--kernel", sig.partition("(")[0]]
    for d in entry.get("defines", []):
        cmd += ["-D", d]
    for p in entry.get("python_path", []):
        cmd += ["--python-path", os.path.join(HERE, p)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    for dirpath, _, files in os.walk(out):
        for f in files:
            if f.endswith(".ptx"):
                return open(os.path.join(dirpath, f)).read()
    raise RuntimeError("pykc wrote no PTX")


KINDS = {
    "LDG": r"\bLDG\b", "STG": r"\bSTG\b", "LDS/STS": r"\b(LDS|STS)\b",
    "IMAD.WIDE/X": r"\bIMAD\.(WIDE|X|HI)", "IMAD": r"\bIMAD\b(?!\.(WIDE|X|HI))",
    "IADD3": r"\bIADD3\b", "LEA": r"\bLEA\b", "ISETP": r"\bISETP\b", "BRA": r"\bBRA\b",
    "CALL": r"\bCALL\b", "MUFU": r"\bMUFU\b", "F2F/I2F/F2I": r"\b(F2F|I2F|F2I|I2I)\b",
    "LDL/STL": r"\b(LDL|STL)\b", "DADD/DMUL/DFMA": r"\b(DADD|DMUL|DFMA)\b",
}


def assemble(ptx, folder, tag):
    p = os.path.join(folder, tag + ".ptx")
    open(p, "w").write(ptx)
    cubin = os.path.join(folder, tag + ".cubin")
    r = subprocess.run([tool("ptxas"), "-arch=sm_90", "-O3", "-v", p, "-o", cubin],
                       capture_output=True, text=True, check=True)
    regs = re.findall(r"Used (\d+) registers", r.stderr)
    spill = re.findall(r"(\d+) bytes spill stores", r.stderr)
    sass = subprocess.run([tool("nvdisasm"), "-c", cubin], capture_output=True,
                          text=True, check=True).stdout
    open(os.path.join(folder, tag + ".sass"), "w").write(sass)
    insts = [l for l in sass.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/", l)]
    insts = [l for l in insts if "NOP" not in l]
    kinds = collections.Counter()
    for l in insts:
        for k, pat in KINDS.items():
            if re.search(pat, l):
                kinds[k] += 1
    return dict(regs=max(map(int, regs)) if regs else 0,
                spill=sum(map(int, spill)), insts=len(insts), kinds=kinds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pykc", default=os.path.join(HERE, "..", "..", "..", "build", "bin", "pykc"))
    ap.add_argument("--out", help="write PTX and SASS of both compilers here")
    ap.add_argument("filters", nargs="*", help="substrings of file or kernel name")
    a = ap.parse_args()
    entries = json.load(open(os.path.join(HERE, "corpus.json")))
    out = a.out or tempfile.mkdtemp(prefix="ptx-vs-numba-")
    os.makedirs(out, exist_ok=True)
    for entry in entries:
        for n, sig in enumerate(entry.get("sigs", [])):
            name = sig.partition("(")[0]
            if a.filters and not any(f in entry["file"] or f in name for f in a.filters):
                continue
            tag = f"{name}.{n}"
            try:
                theirs = assemble(numba_ptx(entry, name, sig), out, tag + ".numba")
                with tempfile.TemporaryDirectory() as t:
                    mine = assemble(pykc_ptx(a.pykc, entry, sig, t), out, tag + ".pykc")
            except Exception as e:  # noqa: BLE001 - one line per failing signature
                print(f"{entry['file']} {sig}: {type(e).__name__}: {str(e)[:200]}")
                continue
            print(f"{entry['file'].split('/')[-1]} {tag}: regs {theirs['regs']}/{mine['regs']} "
                  f"spill {theirs['spill']}/{mine['spill']} SASS {theirs['insts']}/{mine['insts']}"
                  "  (numba/pykc)")
            ks = sorted(set(theirs["kinds"]) | set(mine["kinds"]))
            print("    " + "  ".join(f"{k} {theirs['kinds'][k]}/{mine['kinds'][k]}" for k in ks))
    print("texts in", out)


if __name__ == "__main__":
    main()
