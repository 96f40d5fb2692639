#!/usr/bin/env python3
"""`pykc compile` through the kernel cache, and `pykc cache populate`.

CPU only (nvJitLink links on the host). Each check prints one line; the
script exits 1 at the first failure.

    tests/cache/compile_cache_test.py --pykc build/bin/pykc
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAXPY = os.path.join(ROOT, "examples", "saxpy.py")

KERNEL_A = '''from numba import cuda

SCALE = 3.0


@cuda.jit("void(float32[::1])")
def scale(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= SCALE
'''

KERNEL_B = '''from numba import cuda


@cuda.jit("void(int32[::1], int32[::1])")
def copy(src, dst):
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i]
'''

KERNEL_C = '''import math
from numba import cuda


@cuda.jit(device=True)
def sq(v):
    return v * v


@cuda.jit(["void(float64[::1])", "void(float32[::1])"])
def square(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = sq(x[i]) + math.sqrt(x[i])
'''

NO_KERNELS = '''"""Host code only."""
import numpy as np


def helper(n):
    return np.zeros(n)
'''

UNTYPED = '''from numba import cuda

N = 2


@cuda.jit
def add_n(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += N
'''


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
                                 "LD_DEBUG")}
        # Never the user's cache.
        self.env["HOME"] = os.path.join(tmp, "home")

    def run(self, *args, env=None, cwd=None):
        e = dict(self.env)
        e.update(env or {})
        p = subprocess.run([self.pykc, *args], capture_output=True, env=e, cwd=cwd)
        return p

    def ok(self, *args, env=None, cwd=None):
        p = self.run(*args, env=env, cwd=cwd)
        if p.returncode != 0:
            raise Failure("pykc %s: exit %d\n%s%s" % (" ".join(args), p.returncode,
                                                    p.stdout.decode(), p.stderr.decode()))
        return p

    def stats(self, cache):
        p = self.ok("cache", "stats", "--json", "--cache-dir", cache)
        return json.loads(p.stdout)


def read_tree(folder):
    out = {}
    for dirpath, _, names in os.walk(folder):
        for n in names:
            path = os.path.join(dirpath, n)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = f.read()
    return out


def entry_names(cache):
    """The names of every record and blob (digests), without stats files."""
    names = set()
    for sub in ("ac", "cas"):
        for dirpath, _, files in os.walk(os.path.join(cache, sub)):
            names.update(sub + "/" + f for f in files if not f.startswith(".tmp"))
    return names


def hits_misses(stderr):
    text = stderr.decode()
    return len(re.findall(r"cache hit for", text)), len(re.findall(r"cache miss for", text))


def test_compile(r, tmp):
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    kernel = os.path.join(src, "saxpy.py")
    shutil.copy(SAXPY, kernel)
    c1 = os.path.join(tmp, "cache one")
    archs = ["--arch", "sm_80,sm_90"]

    t0 = time.perf_counter()
    p = r.ok("-v", "compile", kernel, *archs, "--cache-dir", c1, "-o", os.path.join(tmp, "out1"))
    miss_s = time.perf_counter() - t0
    check(hits_misses(p.stderr) == (0, 2), "first compile: 2 misses (sm_80, sm_90)")
    s = r.stats(c1)
    check(s["misses"] == 2 and s["writes"] == 2 and s["hits"] == 0 and s["records"] == 2,
          "stats after a cold compile: 2 misses, 2 writes, 2 records")

    t0 = time.perf_counter()
    p = r.ok("-v", "compile", kernel, *archs, "--cache-dir", c1, "-o", os.path.join(tmp, "out2"))
    hit_s = time.perf_counter() - t0
    check(hits_misses(p.stderr) == (2, 0), "second compile: 2 hits")
    s = r.stats(c1)
    check(s["hits"] == 2 and s["misses"] == 2 and s["writes"] == 2, "stats: 2 hits, no new write")
    out1 = read_tree(os.path.join(tmp, "out1"))
    check(sorted(out1) == ["manifest.json", "saxpy.sm_80.cubin", "saxpy.sm_80.ptx",
                           "saxpy.sm_90.cubin", "saxpy.sm_90.ptx"], "outputs written")
    check(out1 == read_tree(os.path.join(tmp, "out2")),
          "hit outputs byte-identical to the miss's (cubins, PTX, manifest)")
    r.ok("compile", kernel, *archs, "--no-cache", "-o", os.path.join(tmp, "out-nocache"))
    check(out1 == read_tree(os.path.join(tmp, "out-nocache")),
          "cached outputs byte-identical to --no-cache outputs")
    print("  miss %.3f s, hit %.3f s (wall, 2 archs)" % (miss_s, hit_s))

    # Determinism: another cache gets the same keys and blobs.
    c2 = os.path.join(tmp, "cache two")
    r.ok("compile", kernel, *archs, "--cache-dir", c2, "-o", os.path.join(tmp, "out3"))
    check(out1 == read_tree(os.path.join(tmp, "out3")), "a second cache: byte-identical outputs")
    check(entry_names(c1) == entry_names(c2) and len(entry_names(c1)) > 2,
          "a second cache: the same record keys and blob digests")

    # PYKC_CACHE_DIR is used when --cache-dir is not given.
    c_env = os.path.join(tmp, "cache env")
    r.ok("compile", kernel, "--arch", "sm_90", "-o", os.path.join(tmp, "out-env"),
         env={"PYKC_CACHE_DIR": c_env})
    check(r.stats(c_env)["writes"] == 1, "PYKC_CACHE_DIR names the cache")

    def compile_log(*extra):
        p = r.ok("-v", "compile", kernel, *archs, "--cache-dir", c1,
                 "-o", os.path.join(tmp, "out-edit"), *extra)
        return hits_misses(p.stderr)

    original = open(kernel).read()
    edited = original.replace('"""A numba.cuda kernel file', '"""An edited docstring', 1)
    edited = edited.replace("    n = 1 << 20", "    # more host code\n\n    n = 1 << 21", 1)
    edited = edited.replace("    # Grid-stride loop", "    #   a changed kernel comment\n\n    # Grid", 1)
    edited = edited.replace("out[i] = a * x[i] + y[i]", "out[i] = a*x[i]  +  y[i]", 1)
    check(edited != original, "host-code edit prepared")
    open(kernel, "w").write(edited)
    check(compile_log() == (2, 0), "comment, spacing and host-code edits: still hits")

    open(kernel, "w").write(original.replace("out[i] = a * x[i] + y[i]", "out[i] = a * x[i] - y[i]"))
    check(compile_log() == (0, 2), "an edit in a kernel: misses")
    open(kernel, "w").write(original.replace("BLOCK = 256", "BLOCK = 128"))
    check(compile_log() == (0, 2), "an edit of a constant a kernel uses: misses")
    open(kernel, "w").write(original)
    check(compile_log() == (2, 0), "the original again: hits")
    check(compile_log("--use-fast-math") == (0, 2), "--use-fast-math: misses")
    p = r.ok("-v", "compile", kernel, "--arch", "sm_86", "--cache-dir", c1,
             "-o", os.path.join(tmp, "out-86"))
    check(hits_misses(p.stderr) == (0, 1), "another --arch: a miss")
    check(compile_log("-D", "BLOCK=128") == (0, 2), "-D: misses")

    # A corrupt blob: the compile still succeeds, from a recompile.
    c3 = os.path.join(tmp, "cache corrupt")
    r.ok("compile", kernel, *archs, "--cache-dir", c3, "-o", os.path.join(tmp, "out-c0"))
    blobs = []
    for dirpath, _, files in os.walk(os.path.join(c3, "cas")):
        blobs += [os.path.join(dirpath, f) for f in files]
    # The largest blob: a cubin (one arch's entry names it).
    victim = max(blobs, key=os.path.getsize)
    data = bytearray(open(victim, "rb").read())
    data[len(data) // 2] ^= 0x40
    open(victim, "wb").write(bytes(data))
    p = r.ok("-v", "compile", kernel, *archs, "--cache-dir", c3, "-o", os.path.join(tmp, "out-c1"))
    check(hits_misses(p.stderr) == (1, 1), "a corrupted cubin blob: that arch misses, compile succeeds")
    check(read_tree(os.path.join(tmp, "out-c1")) == out1, "outputs after corruption are correct")
    p = r.ok("-v", "compile", kernel, *archs, "--cache-dir", c3, "-o", os.path.join(tmp, "out-c2"))
    check(hits_misses(p.stderr) == (2, 0), "the recompile repaired the cache: hits")
    r.ok("cache", "verify", "--cache-dir", c3)
    # Every blob corrupted: the compiles still succeed with the right outputs
    # (the store drops each damaged blob as it meets it).
    for b in blobs:
        data = bytearray(open(b, "rb").read())
        data[-1] ^= 0x40
        open(b, "wb").write(bytes(data))
    for n in range(3):
        p = r.ok("compile", kernel, *archs, "--cache-dir", c3, "-o", os.path.join(tmp, "out-c3"))
        check(read_tree(os.path.join(tmp, "out-c3")) == out1,
              "every blob corrupted, compile %d: succeeds, outputs correct" % (n + 1))

    # A cache that cannot be written: a folder under a regular file (fails
    # even for root), and a read-only folder.
    blocker = os.path.join(tmp, "a file")
    open(blocker, "w").write("x")
    r.ok("compile", kernel, "--cache-dir", os.path.join(blocker, "cache"),
         "-o", os.path.join(tmp, "out-ro1"))
    check(read_tree(os.path.join(tmp, "out-ro1"))["saxpy.sm_90.cubin"] == out1["saxpy.sm_90.cubin"],
          "unwritable cache folder: compile succeeds with the right cubin")
    ro = os.path.join(tmp, "cache ro")
    shutil.copytree(c1, ro)
    for dirpath, dirs, files in os.walk(ro):
        for n in dirs + files:
            path = os.path.join(dirpath, n)
            os.chmod(path, os.stat(path).st_mode & ~0o222)
    os.chmod(ro, 0o555)
    p = r.ok("-v", "compile", kernel, *archs, "--cache-dir", ro, "-o", os.path.join(tmp, "out-ro2"))
    check(read_tree(os.path.join(tmp, "out-ro2")) == out1, "read-only cache: compile succeeds")
    if os.geteuid() != 0:
        check(hits_misses(p.stderr) == (2, 0), "read-only cache: still serves hits")
    p = r.ok("compile", kernel, "--arch", "sm_75", "--cache-dir", ro, "-o", os.path.join(tmp, "out-ro3"))
    check(p.returncode == 0, "read-only cache: a miss still compiles")
    for dirpath, dirs, files in os.walk(ro):
        os.chmod(dirpath, 0o755)

    # --no-cache never touches the folder.
    c4 = os.path.join(tmp, "cache untouched")
    r.ok("compile", kernel, "--no-cache", "--cache-dir", c4, "-o", os.path.join(tmp, "out-nc1"))
    r.ok("compile", kernel, "--no-cache", "-o", os.path.join(tmp, "out-nc2"),
         env={"PYKC_CACHE_DIR": c4})
    check(not os.path.exists(c4), "--no-cache never creates or reads the cache folder")
    # Partial compiles do not use the cache either.
    r.ok("compile", kernel, "--phase", "ptx", "--cache-dir", c4, "-o", os.path.join(tmp, "out-ph"))
    r.ok("compile", kernel, "--emit", "llvm,ptx,cubin", "--cache-dir", c4,
         "-o", os.path.join(tmp, "out-ll"))
    check(not os.path.exists(c4), "--phase and --emit llvm compile without the cache")

    # A hit loads neither the code generator (libpykc_codegen.so: LLVM's NVPTX
    # back end, lowering) nor nvJitLink; a miss loads both.
    def loaded(cache, out, *extra):
        p = r.ok("compile", kernel, "--cache-dir", cache, "-o", os.path.join(tmp, out), *extra,
                 env={"LD_DEBUG": "libs"})
        return {name for name in ("libnvJitLink", "libpykc_codegen", "libnvfatbin")
                if name.encode() in p.stderr}
    c5 = os.path.join(tmp, "cache ld")
    check(loaded(c5, "out-ld1") >= {"libnvJitLink", "libpykc_codegen"},
          "LD_DEBUG=libs: a miss loads libpykc_codegen.so and libnvJitLink")
    check(not loaded(c5, "out-ld2"), "LD_DEBUG=libs: a hit loads neither libpykc_codegen.so nor libnvJitLink")
    check(read_tree(os.path.join(tmp, "out-ld1")) == read_tree(os.path.join(tmp, "out-ld2")),
          "a hit writes the miss's bytes")
    # Again into the same folder: the outputs are there already (their times refreshed).
    before = os.stat(os.path.join(tmp, "out-ld2", "manifest.json")).st_mtime_ns
    check(not loaded(c5, "out-ld2"), "LD_DEBUG=libs: a hit into its own outputs loads no code generator")
    check(os.stat(os.path.join(tmp, "out-ld2", "manifest.json")).st_mtime_ns >= before,
          "a hit into its own outputs leaves them with fresh times")
    check(read_tree(os.path.join(tmp, "out-ld1")) == read_tree(os.path.join(tmp, "out-ld2")),
          "a hit into its own outputs leaves the same bytes")
    # Fatbins: the second compile takes the fatbin from the cache, loading nothing.
    fat1 = loaded(c5, "out-fat1", "--arch", "sm_80,sm_90", "--fatbin")
    check("libpykc_codegen" in fat1, "LD_DEBUG=libs: a fatbin miss loads libpykc_codegen.so")
    check(not loaded(c5, "out-fat2", "--arch", "sm_80,sm_90", "--fatbin"),
          "LD_DEBUG=libs: a fatbin hit loads no code generator, nvJitLink or nvFatbin")
    check(read_tree(os.path.join(tmp, "out-fat1")) == read_tree(os.path.join(tmp, "out-fat2")),
          "a fatbin hit writes the miss's bytes")
    # Commands that never compile load no code generator either.
    for args in (("inspect", kernel + "::saxpy", "--emit", "cache-key"),
                 ("compile", kernel, "--phase", "check", "-o", os.path.join(tmp, "out-chk")),
                 ("cache", "stats", "--cache-dir", c5)):
        p = r.ok(*args, env={"LD_DEBUG": "libs"})
        check(b"libpykc_codegen" not in p.stderr, "LD_DEBUG=libs: `pykc %s` loads no code generator" % args[0])


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(text)


SUMMARY = re.compile(rb"populate: (\d+) jobs, (\d+) hits, (\d+) compiled, (\d+) failed, (\d+\.\d\d) s")


def summary(p):
    m = SUMMARY.search(p.stdout)
    if not m:
        raise Failure("no summary line in %r" % p.stdout)
    return tuple(int(x) for x in m.groups()[:4]), float(m.group(5))


def test_populate(r, tmp):
    pop = os.path.join(tmp, "pop")
    write(os.path.join(pop, "a.py"), KERNEL_A)
    write(os.path.join(pop, "sub", "b.py"), KERNEL_B)
    write(os.path.join(pop, "sub", "deeper", "c.py"), KERNEL_C)
    write(os.path.join(pop, "host_only.py"), NO_KERNELS)
    write(os.path.join(pop, "notes.txt"), "not python")
    cache = os.path.join(tmp, "pop cache")
    p = r.ok("cache", "populate", pop, "--arch", "sm_80,sm_90", "-j", "2", "--cache-dir", cache)
    (counts, cold) = summary(p)
    check(counts == (6, 0, 6, 0), "populate: 3 files x 2 archs -> 6 compiled (%.2f s)" % cold)
    check(p.stderr == b"", "populate: no progress output when stderr is not a terminal")
    p = r.ok("cache", "populate", pop, "--arch", "sm_80,sm_90", "-j", "2", "--cache-dir", cache)
    (counts, warm) = summary(p)
    check(counts == (6, 6, 0, 0), "populate again: 6 hits (%.2f s)" % warm)
    p = r.ok("-v", "compile", os.path.join(pop, "sub", "deeper", "c.py"), "--arch", "sm_80,sm_90",
             "--cache-dir", cache, "-o", os.path.join(tmp, "pop-out"))
    check(hits_misses(p.stderr) == (2, 0), "pykc compile hits what populate stored")

    # 8 processes at once on one cache.
    shared = os.path.join(tmp, "pop shared")
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        procs = list(pool.map(lambda _: r.run("cache", "populate", pop, "--arch", "sm_80,sm_90",
                                              "-j", "1", "--cache-dir", shared), range(8)))
    eight = time.perf_counter() - t0
    for i, q in enumerate(procs):
        if q.returncode != 0:
            raise Failure("concurrent populate %d: exit %d\n%s" % (i, q.returncode, q.stderr.decode()))
        c, _ = summary(q)
        if c[0] != 6 or c[3] != 0:
            raise Failure("concurrent populate %d: %r" % (i, c))
    check(True, "8 concurrent populates all succeed (%.2f s)" % eight)
    v = r.ok("cache", "verify", "--cache-dir", shared)
    check(b"no problems" in v.stdout and r.stats(shared)["records"] == 6,
          "after 8 concurrent populates: verify clean, 6 records")

    # Untyped kernels: an error without a spec, compiled with one.
    untyped = os.path.join(tmp, "untyped")
    write(os.path.join(untyped, "k.py"), UNTYPED)
    c2 = os.path.join(tmp, "spec cache")
    p = r.run("cache", "populate", untyped, "--arch", "sm_90", "--cache-dir", c2)
    check(p.returncode == 1 and b"has no types" in p.stderr and summary(p)[0] == (1, 0, 0, 1),
          "untyped kernel without a spec: its diagnostic, exit 1")
    spec = os.path.join(tmp, "spec.json")
    open(spec, "w").write(json.dumps({"untyped/k.py": {"sigs": ["add_n(float32[::1])"],
                                                       "defines": ["N=4"]}}))
    p = r.ok("cache", "populate", untyped, "--arch", "sm_80,sm_90", "--spec", spec,
             "--cache-dir", c2)
    check(summary(p)[0] == (2, 0, 2, 0), "spec file: the untyped kernel compiled for 2 archs")
    p = r.ok("-v", "compile", os.path.join(untyped, "k.py"), "--arch", "sm_80,sm_90",
             "--sig", "add_n(float32[::1])", "-D", "N=4", "--cache-dir", c2,
             "-o", os.path.join(tmp, "spec-out"))
    check(hits_misses(p.stderr) == (2, 0), "compile with the same --sig and -D hits")
    bad = os.path.join(tmp, "bad.json")
    open(bad, "w").write('{"k.py": {"sigs": "add_n(float32[::1])"}}')
    p = r.run("cache", "populate", untyped, "--arch", "sm_90", "--spec", bad, "--cache-dir", c2)
    check(p.returncode == 2 and b"list of strings" in p.stderr, "malformed spec: exit 2")
    p = r.run("cache", "populate", os.path.join(tmp, "nowhere"), "--arch", "sm_90",
              "--cache-dir", c2)
    check(p.returncode == 3, "a missing path: exit 3")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pykc compile cache ")
    try:
        r = Runner(os.path.abspath(args.pykc), tmp)
        test_compile(r, tmp)
        test_populate(r, tmp)
    except Failure as e:
        print("FAIL:", e)
        return 1
    finally:
        for dirpath, dirs, files in os.walk(tmp):
            os.chmod(dirpath, 0o755)
        shutil.rmtree(tmp, ignore_errors=True)
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
