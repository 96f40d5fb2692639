#!/usr/bin/env python3
"""The kernel cache with linked CUDA C++ (docs/CACHE.md, docs/INTEROP.md).

A hit loads neither NVRTC nor nvJitLink; the key changes with the `.cu` file,
a header it includes with quotes, -D, -I, --nvrtc-option and --lto, and not
with host edits of the Python file. CPU only. Each check prints one line; the
script exits 1 at the first failure.

    tests/cache/interop_cache_test.py --pykc build/bin/pykc
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

KERNEL = '''import os
from numba import cuda

mul = cuda.declare_device("mul_f32", "float32(float32, float32)",
                          link=os.path.join(os.path.dirname(__file__), "ops.cu"))


@cuda.jit("void(float32[::1])")
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = mul(x[i], x[i])
'''

OPS = '''#include "scale.h"
extern "C" __device__ int mul_f32(float* return_value, float x, float y) {
  *return_value = x * y * SCALE;
  return 0;
}
'''


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)
    print("ok:", what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pykc-interop-cache-") as tmp:
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYKC_CACHE_DIR", "XDG_CACHE_HOME", "LD_DEBUG")}
        env["HOME"] = os.path.join(tmp, "home")
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        kernel = os.path.join(src, "k.py")
        open(kernel, "w").write(KERNEL)
        open(os.path.join(src, "ops.cu"), "w").write(OPS)
        open(os.path.join(src, "scale.h"), "w").write("#define SCALE 2.0f\n")
        cache = os.path.join(tmp, "cache")

        def compile_(*extra, ld=False):
            e = dict(env)
            if ld:
                e["LD_DEBUG"] = "libs"
            p = subprocess.run([args.pykc, "-v", "compile", kernel, "--arch", "sm_90",
                                "--cache-dir", cache, "-o", os.path.join(tmp, "out"), *extra],
                               capture_output=True, env=e)
            if p.returncode != 0:
                raise Failure("pykc compile %s: exit %d\n%s" % (" ".join(extra), p.returncode,
                                                                 p.stderr.decode()))
            text = p.stderr.decode()
            hit = len(re.findall(r"cache hit for", text)) == 1
            return hit, text

        hit, text = compile_(ld=True)
        check(not hit, "first compile misses")
        check("libnvrtc.so" in text and "libnvJitLink" in text,
              "LD_DEBUG=libs: a miss with a linked .cu loads NVRTC and nvJitLink")
        hit, text = compile_(ld=True)
        check(hit, "second compile hits")
        check("libnvrtc" not in text and "libnvJitLink" not in text,
              "LD_DEBUG=libs: a hit loads neither NVRTC nor nvJitLink")

        open(kernel, "w").write("# a host comment\n" + KERNEL + "\nprint('host')\n")
        check(compile_()[0], "a host edit of the Python file still hits")

        open(os.path.join(src, "ops.cu"), "w").write(OPS.replace("x * y", "y * x"))
        check(not compile_()[0], "an edit of the .cu file misses")
        check(compile_()[0], "... and hits again")
        open(os.path.join(src, "scale.h"), "w").write("#define SCALE 3.0f\n")
        check(not compile_()[0], "an edit of a header the .cu includes with quotes misses")
        check(not compile_("-D", "EXTRA=1")[0], "-D misses (it reaches NVRTC)")
        check(not compile_("-I", src)[0], "-I misses")
        check(not compile_("--nvrtc-option=-std=c++20")[0], "--nvrtc-option misses")
        check(not compile_("--lto")[0], "--lto misses")
        check(compile_("--lto")[0], "--lto hits again")
    print("interop cache: all checks passed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as f:
        print("FAIL:", f)
        sys.exit(1)
