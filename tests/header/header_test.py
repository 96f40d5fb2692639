#!/usr/bin/env python3
"""`pykc header` (cli/launch_header.cpp): launch headers from `pykc compile` output.

Compiles tests/header/kernels.py (every parameter kind of docs/ABI.md, the launch flags)
for sm_80, sm_90 and compute_90, once with --fatbin, and tile_kernels.py; then checks
  - the header is the same bytes from two runs, to stdout and with -o;
  - it compiles as C99 and C++17 with -Wall -Wextra -Werror, two headers in one unit;
  - each launch passes as many parameters as the manifest's params flatten to;
  - fake_driver_test.c, run against a fake CUDA driver, loads the right image per GPU
    and passes every argument struct field in the ABI's order (as C and as C++);
  - errors: a missing folder, a folder without a manifest (exit 3, a message).
Needs gcc/g++ and cuda.h (the toolkit's include folder); no GPU.

    header_test.py --pykc build/bin/pykc [--cuda-include /usr/local/cuda/include]
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
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def flat_count(param):
    """How many kernel parameters one manifest param is (docs/ABI.md)."""
    if param["kind"] == "array":
        return 1 + 2 * param["ndim"]
    if param["kind"] == "tuple":
        return sum(flat_count(e) for e in param["elements"])
    return 2 if param["dtype"].startswith("complex") else 1


def compile_folder(pykc, source, out, extra=()):
    r = run([pykc, "compile", source, "-o", out, *extra])
    check(r.returncode == 0, f"compile {os.path.basename(source)} {' '.join(extra)}: exit {r.returncode}\n{r.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pykc", required=True)
    parser.add_argument("--cuda-include", default=os.path.join(
        os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include"))
    args = parser.parse_args()
    pykc = os.path.abspath(args.pykc)
    if not os.path.exists(os.path.join(args.cuda_include, "cuda.h")) or not shutil.which("gcc"):
        print(f"SKIP: needs gcc and cuda.h in {args.cuda_include}")
        return 77
    tmp = tempfile.mkdtemp(prefix="pykc-header-")
    try:
        plain, fat, tile = (os.path.join(tmp, d) for d in ("plain", "fat", "tile"))
        archs = ["--arch", "sm_80,sm_90,compute_90"]
        compile_folder(pykc, os.path.join(HERE, "kernels.py"), os.path.join(plain, "kernels"), archs)
        compile_folder(pykc, os.path.join(HERE, "kernels.py"), os.path.join(fat, "kernels"), archs + ["--fatbin"])
        compile_folder(pykc, os.path.join(HERE, "tile_kernels.py"), os.path.join(tile, "tile_kernels"),
                       ["--arch", "sm_80,sm_90"])
        if failures:
            return 1

        # The same bytes: two runs, stdout and -o.
        headers = {}
        for name, folder in (("plain", plain), ("fat", fat), ("tile", tile)):
            stem = "tile_kernels" if name == "tile" else "kernels"
            out = os.path.join(folder, "include", stem + ".h")
            first = run([pykc, "header", os.path.join(folder, stem), "-o", out])
            check(first.returncode == 0 and first.stdout == "", f"header {name}: exit {first.returncode}\n{first.stderr}")
            again = subprocess.run([pykc, "header", os.path.join(folder, stem)], capture_output=True)
            text = open(out, "rb").read() if os.path.exists(out) else b""
            check(again.returncode == 0 and again.stdout == text, f"header {name}: stdout differs from -o")
            headers[name] = (out, text.decode())
        # Not a word of the temporary folder (the header must not depend on where it was made).
        for name, (_, text) in headers.items():
            check(tmp not in text, f"header {name} names the build folder")

        # Each launch passes as many parameters as the manifest's params flatten to.
        manifest = json.load(open(os.path.join(plain, "kernels", "manifest.json")))
        text = headers["plain"][1]
        for k in manifest["kernels"]:
            want = sum(flat_count(p) for p in k["params"])
            m = re.search(r"CUresult kernels_" + re.escape(k["symbol"]) + r"_launch\(.*?\n\}", text, re.S)
            check(m is not None, f"no launch function for {k['symbol']}")
            if m:
                got = re.search(r"void\* params\[(\d+)\]", m.group(0))
                check((int(got.group(1)) if got else 0) == want,
                      f"{k['symbol']}: {got.group(1) if got else 0} parameters, the manifest's flatten to {want}")
        tile_manifest = json.load(open(os.path.join(tile, "tile_kernels", "manifest.json")))
        tile_block = tile_manifest["kernels"][0]["tile"]["block"][0]

        # C99 and C++17, strict warnings; both headers in one unit; the fake driver run.
        inc = ["-I", args.cuda_include, "-I", os.path.join(tile, "include")]
        for name in ("plain", "fat"):
            flags = inc + ["-I", os.path.dirname(headers[name][0]), f"-DTILE_BLOCK={tile_block}"]
            if name == "fat":
                flags.append("-DFATBIN")
            for lang, compiler, std in (("c", "gcc", "-std=c99"), ("c++", "g++", "-std=c++17")):
                exe = os.path.join(tmp, f"fake_{name}_{lang.replace('+', 'p')}")
                r = run([compiler, std, "-Wall", "-Wextra", "-Werror", "-x", lang,
                         os.path.join(HERE, "fake_driver_test.c"), *flags, "-o", exe])
                check(r.returncode == 0, f"{compiler} {std} on the {name} header:\n{r.stderr[-3000:]}")
                if r.returncode == 0:
                    r = run([exe])
                    check(r.returncode == 0 and "all checks passed" in r.stdout,
                          f"fake driver ({name}, {lang}): exit {r.returncode}\n{r.stdout}{r.stderr}")

        # Errors: exit 3 with a message.
        r = run([pykc, "header", os.path.join(tmp, "no-such-folder")])
        check(r.returncode == 3 and "pykc: error: cannot read" in r.stderr and "manifest.json" in r.stderr,
              f"missing folder: exit {r.returncode}\n{r.stderr}")
        bad = os.path.join(tmp, "bad")
        os.makedirs(bad)
        with open(os.path.join(bad, "manifest.json"), "w") as f:
            f.write('{"format": "something-else"}')
        r = run([pykc, "header", bad])
        check(r.returncode == 3 and "is not a pykc manifest" in r.stderr, f"foreign manifest: exit {r.returncode}\n{r.stderr}")
        with open(os.path.join(bad, "manifest.json"), "w") as f:
            json.dump(dict(manifest, targets=[{"arch": "sm_90", "cubin": "gone.cubin"}]), f)
        r = run([pykc, "header", bad])
        check(r.returncode == 3 and "gone.cubin" in r.stderr, f"missing cubin: exit {r.returncode}\n{r.stderr}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("header: deterministic, C and C++, ABI order checked against a fake driver")
    return 0


if __name__ == "__main__":
    sys.exit(main())
