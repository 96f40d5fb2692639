#!/usr/bin/env python3
"""`pykc cache populate` with `pykc compile`'s codegen and link options.

A populate with some flags (on its command line, or per file in --spec)
must store exactly the entries that `pykc compile` with the same flags then
hits, loading neither nvJitLink nor NVRTC (LD_DEBUG=libs); other flags miss.
CPU only. Each check prints one line; the script exits 1 at the first
failure.

    tests/cache/populate_flags_test.py --pykc build/bin/pykc
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

KERNEL = '''from numba import cuda

SCALE = 3.0
N = 2


@cuda.jit("void(float32[::1])")
def scale(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * SCALE / (x[i] + N)
'''

# Calls a function the command line links (--link), whose header only -I finds.
LINKED = '''from numba import cuda

mul = cuda.declare_device("mul_f32", "float32(float32, float32)")


@cuda.jit("void(float32[::1])")
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = mul(x[i], x[i])
'''

OPS = '''#include "scale.h"
extern "C" __device__ int mul_f32(float* return_value, float x, float y) {
  *return_value = x * y * SCALE * EXTRA;
  return 0;
}
'''

SUMMARY = re.compile(r"populate: (?:shard \d+/\d+: )?(\d+) jobs, (\d+) hits, (\d+) compiled, (\d+) failed")


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)
    print("ok:", what)


class Runner:
    def __init__(self, pykc, tmp):
        self.pykc = pykc
        self.tmp = tmp
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYKC_CACHE_DIR", "XDG_CACHE_HOME", "PYKC_CACHE_MAXSIZE",
                                 "PYKC_REMOTE_STORAGE", "LD_DEBUG")}
        self.env["HOME"] = os.path.join(tmp, "home")
        self.outs = 0

    def run(self, *args, ld=False, cwd=None):
        env = dict(self.env)
        if ld:
            env["LD_DEBUG"] = "libs"
        return subprocess.run([self.pykc, *args], capture_output=True, env=env, cwd=cwd)

    def populate(self, cache, paths, *flags, cwd=None):
        p = self.run("cache", "populate", *paths, "--arch", "sm_80,sm_90", "--cache-dir", cache,
                     *flags, cwd=cwd)
        if p.returncode != 0:
            raise Failure("populate %s: exit %d\n%s%s" % (" ".join(flags), p.returncode,
                                                          p.stdout.decode(), p.stderr.decode()))
        m = SUMMARY.search(p.stdout.decode())
        if not m:
            raise Failure("no summary in %r" % p.stdout)
        return tuple(int(x) for x in m.groups())

    def compile(self, cache, kernel, *flags, cwd=None):
        """(hits, misses, nvJitLink loaded, NVRTC loaded) of a compile for sm_80,sm_90."""
        self.outs += 1
        p = self.run("-v", "compile", kernel, "--arch", "sm_80,sm_90", "--cache-dir", cache,
                     "-o", os.path.join(self.tmp, "out%d" % self.outs), *flags, ld=True, cwd=cwd)
        if p.returncode != 0:
            raise Failure("compile %s: exit %d\n%s" % (" ".join(flags), p.returncode,
                                                       p.stderr.decode()[-3000:]))
        text = p.stderr.decode()
        return (len(re.findall(r"cache hit for", text)), len(re.findall(r"cache miss for", text)),
                "libnvJitLink" in text, "libnvrtc" in text)


HIT = (2, 0, False, False)


def test_codegen_flags(r, tmp):
    src = os.path.join(tmp, "plain")
    os.makedirs(src)
    kernel = os.path.join(src, "k.py")
    open(kernel, "w").write(KERNEL)
    # Each flag set: populate with it, compile with it (a hit that loads
    # nothing), compile without it and with a neighbouring value (misses).
    cases = [
        (["-O", "2"], [["-O", "1"]]),
        (["-O", "0"], [["-O", "1"]]),
        (["--use-fast-math"], []),
        (["--lineinfo"], []),
        (["--maxrregcount", "32"], [["--maxrregcount", "40"]]),
        (["--no-alias-versioning"], []),
        (["-D", "SCALE=5.0"], [["-D", "SCALE=6.0"], ["-D", "N=3"]]),
        (["-O", "1", "--use-fast-math", "--maxrregcount", "64", "--lineinfo", "-D", "N=7"],
         [["-O", "1", "--use-fast-math", "--maxrregcount", "64", "--lineinfo"]]),
    ]
    for n, (flags, others) in enumerate(cases):
        cache = os.path.join(tmp, "cache plain %d" % n)
        check(r.populate(cache, [src], *flags) == (2, 0, 2, 0),
              "populate %s: 2 compiled" % " ".join(flags))
        check(r.compile(cache, kernel, *flags) == HIT,
              "compile %s hits both archs, loading neither nvJitLink nor NVRTC" % " ".join(flags))
        for other in [[]] + others:
            got = r.compile(cache, kernel, *other)
            check(got[:2] == (0, 2), "compile %s misses" % (" ".join(other) or "without flags"))
        check(r.populate(cache, [src], *flags) == (2, 2, 0, 0),
              "populate %s again: 2 hits" % " ".join(flags))


def test_link_flags(r, tmp):
    src = os.path.join(tmp, "linked")
    inc = os.path.join(tmp, "include")
    os.makedirs(src)
    os.makedirs(inc)
    kernel = os.path.join(src, "k.py")
    ops = os.path.join(src, "ops.cu")
    open(kernel, "w").write(LINKED)
    open(ops, "w").write(OPS)
    open(os.path.join(inc, "scale.h"), "w").write("#define SCALE 2.0f\n")
    base = ["--link", ops, "-I", inc, "-D", "EXTRA=1.5"]
    cases = [
        (base, [base[:-2] + ["-D", "EXTRA=2.5"]]),
        (base + ["--nvrtc-option=-std=c++20"], [base + ["--nvrtc-option=-std=c++17"]]),
        (base + ["--lto"], [base]),
    ]
    for n, (flags, others) in enumerate(cases):
        cache = os.path.join(tmp, "cache linked %d" % n)
        check(r.populate(cache, [src], *flags) == (2, 0, 2, 0),
              "populate %s: 2 compiled" % " ".join(flags[4:]))
        check(r.compile(cache, kernel, *flags) == HIT,
              "compile with the same --link, -I, -D %s hits, loading neither nvJitLink nor NVRTC"
              % " ".join(flags[6:]))
        for other in others:
            check(r.compile(cache, kernel, *other)[:2] == (0, 2),
                  "compile %s misses" % " ".join(other[4:]))
    # Relative paths mean what they mean to `pykc compile` in the same folder.
    cache = os.path.join(tmp, "cache linked relative")
    rel = ["--link", "ops.cu", "-I", "../include", "-D", "EXTRA=1.5"]
    check(r.populate(cache, ["k.py"], *rel, cwd=src) == (2, 0, 2, 0),
          "populate with relative --link and -I")
    check(r.compile(cache, "k.py", *rel, cwd=src) == HIT, "compile with the same relative paths hits")
    # A header edit that only -I reaches misses after a populate too.
    open(os.path.join(inc, "scale.h"), "w").write("#define SCALE 4.0f\n")
    check(r.compile(cache, "k.py", *rel, cwd=src)[:2] == (0, 2),
          "an edit of the header found through -I misses")


def test_spec(r, tmp):
    src = os.path.join(tmp, "spec src")
    inc = os.path.join(tmp, "spec include")
    os.makedirs(src)
    os.makedirs(inc)
    plain = os.path.join(src, "plain.py")
    linked = os.path.join(src, "linked.py")
    ops = os.path.join(src, "ops.cu")
    open(plain, "w").write(KERNEL)
    open(linked, "w").write(LINKED)
    open(ops, "w").write(OPS)
    open(os.path.join(inc, "scale.h"), "w").write("#define SCALE 2.0f\n")
    spec = os.path.join(tmp, "spec.json")
    open(spec, "w").write(json.dumps({
        # Two variants of one file.
        "spec src/plain.py": [{"opt": 2, "defines": ["N=5"]},
                              {"use_fast_math": True, "maxrregcount": 48, "lineinfo": True,
                               "alias_versioning": False}],
        "linked.py": {"link": [ops], "include_dirs": [inc], "defines": ["EXTRA=1.5"],
                      "nvrtc_options": ["-std=c++20"], "lto": True, "opt": 1},
    }))
    cache = os.path.join(tmp, "cache spec")
    # The command line's -D comes first, the spec's lists after it.
    counts = r.populate(cache, [src], "--spec", spec, "-D", "SCALE=4.0")
    check(counts == (6, 0, 6, 0), "spec: plain.py twice and linked.py once, x 2 archs")
    check(r.compile(cache, plain, "-D", "SCALE=4.0", "-O", "2", "-D", "N=5") == HIT,
          "compile as the spec's first variant (command line -D, then the spec's) hits")
    check(r.compile(cache, plain, "-D", "SCALE=4.0", "--use-fast-math", "--maxrregcount", "48",
                    "--lineinfo", "--no-alias-versioning") == HIT,
          "compile as the spec's second variant hits")
    check(r.compile(cache, plain, "-D", "SCALE=4.0")[:2] == (0, 2),
          "compile without the spec's options misses")
    check(r.compile(cache, linked, "-D", "SCALE=4.0", "--link", ops, "-I", inc, "-D",
                    "EXTRA=1.5", "--nvrtc-option=-std=c++20", "--lto", "-O", "1") == HIT,
          "compile with the spec's link options hits, loading neither nvJitLink nor NVRTC")
    check(r.populate(cache, [src], "--spec", spec, "-D", "SCALE=4.0") == (6, 6, 0, 0),
          "populate with the spec again: 6 hits")
    # Sharding splits the variants too: 3 shards cover the 6 jobs once each.
    shards = [r.populate(os.path.join(tmp, "cache shard"), [src], "--spec", spec, "-D",
                         "SCALE=4.0", "--shard", "%d/3" % i) for i in (1, 2, 3)]
    check([s[0] for s in shards] == [2, 2, 2] and sum(s[2] for s in shards) == 6,
          "--shard 1/3 ... 3/3: 2 jobs each, every job once")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pykc populate flags ") as tmp:
        r = Runner(os.path.abspath(args.pykc), tmp)
        test_codegen_flags(r, tmp)
        test_link_flags(r, tmp)
        test_spec(r, tmp)
    print("populate flags: all checks passed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as f:
        print("FAIL:", f)
        sys.exit(1)
