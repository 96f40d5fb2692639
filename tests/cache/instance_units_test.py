#!/usr/bin/env python3
"""Cache units of one kernel instance (docs/CACHE.md, "Instance units").

`pykc cache populate --per-instance` stores one entry per kernel instance
(kernel x signature x Constants x arch x options); a compile of one kernel
with one signature (`pykc compile --kernel K --sig ...`, the C API, the JIT)
computes exactly that key and hits without loading nvJitLink. A new signature
for one kernel compiles that instance alone; its neighbours' keys do not
change and they still hit. CPU only; one line per check, exit 1 on failure.

    tests/cache/instance_units_test.py --pykc build/bin/pykc
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

KERNELS = '''from numba import cuda


@cuda.jit
def k1(x):
    x[0] = 1.0


@cuda.jit("void(float32[::1])")
def k2(x):
    x[0] = 2.0


@cuda.jit(["void(int32[::1])", "void(int64[::1])"])
def k3(x):
    x[0] = 3
'''

failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok: " if ok else "FAIL: ") + what + ("" if ok or not detail else "\n" + detail))
    failures += 0 if ok else 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pykc", required=True)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "three.py")
        with open(src, "w") as f:
            f.write(KERNELS)
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump({"three.py": {"sigs": ["k1(float32[::1])"]}}, f)
        cache = os.path.join(tmp, "cache")
        out = os.path.join(tmp, "out")

        def pykc(*argv, debug_libs=False):
            env = dict(os.environ)
            if debug_libs:
                env["LD_DEBUG"] = "libs"
            return subprocess.run([args.pykc, "-v", *argv], capture_output=True, text=True, env=env)

        def compile_kernel(kernel, *extra, debug_libs=False):
            r = pykc("compile", src, "--kernel", kernel, *extra, "--arch", "sm_90", "--cache-dir", cache,
                     "-o", out, debug_libs=debug_libs)
            keys = re.findall(r"cache (hit|miss) for \S+ sm_90 \(([0-9a-f]{64})\)", r.stderr)
            return r, keys

        r = pykc("cache", "populate", src, "--arch", "sm_90", "--cache-dir", cache, "--per-instance", "--spec", spec)
        check(r.returncode == 0 and "1 jobs, 0 hits, 1 compiled" in r.stdout, "populate --per-instance compiles the file's job",
              r.stdout + r.stderr)
        r = pykc("cache", "stats", "--cache-dir", cache)
        check(re.search(r"entries\s+4 ", r.stdout) is not None, "four entries: one per kernel instance", r.stdout)
        r = pykc("cache", "populate", src, "--arch", "sm_90", "--cache-dir", cache, "--per-instance", "--spec", spec)
        check("1 jobs, 1 hits, 0 compiled" in r.stdout, "a second populate hits every instance", r.stdout)

        r, keys = compile_kernel("k1", "--sig", "k1(float32[::1])", debug_libs=True)
        check(r.returncode == 0 and [k[0] for k in keys] == ["hit"], "one kernel, one signature: hit", r.stderr[-2000:])
        check("libnvJitLink" not in r.stderr, "the hit loads no nvJitLink")
        r, keys = compile_kernel("k2")
        check([k[0] for k in keys] == ["hit"], "k2 hits", r.stderr)
        k2_key = keys[0][1] if keys else None

        r, keys = compile_kernel("k1", "--sig", "k1(float64[::1])")
        check(r.returncode == 0 and [k[0] for k in keys] == ["miss"] and "compiling" in r.stderr,
              "a new signature for k1 compiles that instance", r.stderr)
        r = pykc("cache", "stats", "--cache-dir", cache)
        check(re.search(r"entries\s+5 ", r.stdout) is not None, "one new entry, the others untouched", r.stdout)
        r, keys = compile_kernel("k2")
        check(keys and keys[0] == ("hit", k2_key), "k2's key is unchanged and still hits", r.stderr)
        r, keys = compile_kernel("k1", "--sig", "k1(float32[::1])")
        check([k[0] for k in keys] == ["hit"], "k1's first signature still hits", r.stderr)
        r, _ = compile_kernel("k9")
        check(r.returncode == 2 and "`k9` is not a kernel of" in r.stderr, "an unknown kernel is a usage error", r.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
