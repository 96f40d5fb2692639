#!/usr/bin/env python3
"""Blackwell cubins, compute_XY PTX and fatbins from `pykc compile` (docs/compile.md,
"Architectures" and "Fatbins"), checked with NVIDIA's own tools; no GPU needed.

- sm_100, sm_103, sm_120, sm_121 (and sm_100a, sm_121f): each cubin's ELF header names
  its arch (e_flags and `cuobjdump -elf`), its SASS reads back through `nvdisasm` for
  that arch, and its PTX is sm_90's (the manifest's `ptx_target`).
- sm_80,sm_90,sm_100,compute_90 --fatbin: `cuobjdump -lelf -lptx` lists the three
  cubins and the compute_90 PTX; the cubins' bytes are in it; two compiles give the
  same bytes; a warm compile (cache hit) gives them again with an nvFatbin that cannot
  load (so a hit never opens it); and a cold one with it fails with exit 3.

    tests/arch/run_arch_outputs.py --pykc build/bin/pykc --tools build/pydeps/nvidia/cu13/bin:build/pydeps-cuda/nvidia/cu13/bin

Exit 77 (skipped) when nvdisasm or cuobjdump is not found.
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SAXPY = os.path.join(ROOT, "examples", "saxpy.py")
failures = []
TOOL_DIRS = []  # --tools: nvdisasm's, cuobjdump's (and the wheels' lib/ beside them)


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def tool(name, dirs):
    for d in dirs + [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin")]:
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return shutil.which(name)


def pykc(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


def elf_sm(cubin: bytes) -> int:
    """The SM a CUDA ELF is for: e_flags bits 8-15 (CUDA 13's ABI 8 layout)."""
    assert cubin[:4] == b"\x7fELF" and cubin[4] == 2, "a 64-bit ELF"
    (flags,) = struct.unpack_from("<I", cubin, 0x30)
    return (flags >> 8) & 0xFF


def blackwell_cubins(exe, nvdisasm, cuobjdump, tmp):
    archs = ["sm_100", "sm_103", "sm_120", "sm_121", "sm_100a", "sm_121f"]
    out = os.path.join(tmp, "blackwell")
    p = pykc([exe, "compile", SAXPY, "--arch", ",".join(archs), "--no-cache", "-o", out])
    check(p.returncode == 0, f"compile for {archs}: exit {p.returncode}\n{p.stderr}")
    if p.returncode != 0:
        return
    m = json.load(open(os.path.join(out, "manifest.json")))
    for t in m["targets"]:
        arch = t["arch"]
        sm = int(re.match(r"sm_(\d+)", arch).group(1))
        cubin_path = os.path.join(out, t["cubin"])
        cubin = open(cubin_path, "rb").read()
        check(elf_sm(cubin) == sm, f"{arch}: ELF e_flags name sm {elf_sm(cubin)}")
        elf = subprocess.run([cuobjdump, "-elf", cubin_path], capture_output=True, text=True)
        # cuobjdump names `a` variants (sm=100a); an `f` cubin's header says its SM (sm=121).
        check(f"sm={arch[3:].rstrip('f')}," in elf.stdout, f"{arch}: cuobjdump -elf header: {elf.stdout[:200]!r}")
        sass = subprocess.run([nvdisasm, cubin_path], capture_output=True, text=True)
        check(sass.returncode == 0, f"{arch}: nvdisasm failed: {sass.stderr}")
        check(f".target\tsm_{sm}" in sass.stdout, f"{arch}: nvdisasm .target: {sass.stdout[:120]!r}")
        # saxpy's body in Blackwell SASS: global loads, a fused multiply-add, a store.
        for op in ("LDG.E", "FFMA", "STG.E", "EXIT"):
            check(op in sass.stdout, f"{arch}: no {op} in the SASS")
        ptx = open(os.path.join(out, t["ptx"])).read()
        check("\n.target sm_90\n" in ptx, f"{arch}: PTX is not sm_90's")
        check(t.get("ptx_target") == "sm_90", f"{arch}: manifest ptx_target {t.get('ptx_target')!r}")
    print(f"checked: {len(m['targets'])} Blackwell cubins: ELF arch, nvdisasm SASS, sm_90 PTX")


def fatbin(exe, cuobjdump, tmp):
    archs = "sm_80,sm_90,sm_100,compute_90"
    cache = os.path.join(tmp, "cache")
    outs = [os.path.join(tmp, f"fatbin{i}") for i in range(4)]
    # A copy of nvFatbin the compile names (--nvfatbin): its identity is in the fatbin's key.
    lib = os.path.join(tmp, "lib", "libnvfatbin.so.13")
    os.makedirs(os.path.dirname(lib))
    candidates = [os.path.join(d, "..", "lib", "libnvfatbin.so.13") for d in TOOL_DIRS]
    real = [p for p in candidates + ["/usr/local/cuda/lib64/libnvfatbin.so.13"] if os.path.exists(p)]
    check(bool(real), "no libnvfatbin.so.13 to copy")
    if not real:
        return
    shutil.copy2(real[0], lib)
    base = [exe, "-v", "compile", SAXPY, "--arch", archs, "--fatbin", "--cache-dir", cache, "--nvfatbin", lib]
    cold = pykc(base + ["-o", outs[0]])
    check(cold.returncode == 0, f"fatbin compile: exit {cold.returncode}\n{cold.stderr}")
    if cold.returncode != 0:
        return
    check("cache miss for fatbin saxpy.fatbin" in cold.stderr, "cold: no fatbin miss logged")
    data = open(os.path.join(outs[0], "saxpy.fatbin"), "rb").read()
    listing = subprocess.run([cuobjdump, "-lelf", "-lptx", os.path.join(outs[0], "saxpy.fatbin")],
                             capture_output=True, text=True)
    want = ["ELF file    1: saxpy.sm_80.cubin", "ELF file    2: saxpy.sm_90.cubin",
            "ELF file    3: saxpy.sm_100.cubin", "PTX file    1: saxpy.sm_90.ptx"]
    check(listing.stdout.split("\n")[:4] == want, f"cuobjdump listing:\n{listing.stdout}{listing.stderr}")
    for arch in ("sm_80", "sm_90", "sm_100"):
        cubin = open(os.path.join(outs[0], f"saxpy.{arch}.cubin"), "rb").read()
        check(cubin in data, f"the {arch} cubin's bytes are not in the fatbin")
    check(not os.path.exists(os.path.join(outs[0], "saxpy.compute_90.cubin")), "compute_90 wrote a cubin")
    m = json.load(open(os.path.join(outs[0], "manifest.json")))
    check(m.get("fatbin") == {"file": "saxpy.fatbin", "cubins": ["sm_80", "sm_90", "sm_100"],
                              "ptx": ["compute_90"]}, f"manifest fatbin {m.get('fatbin')!r}")
    # Again without the cache: the same bytes (deterministic nvFatbin).
    again = pykc([exe, "compile", SAXPY, "--arch", archs, "--fatbin", "--no-cache", "-o", outs[1]])
    check(again.returncode == 0 and open(os.path.join(outs[1], "saxpy.fatbin"), "rb").read() == data,
          f"a second compile gave other fatbin bytes (exit {again.returncode})")
    # Warm: a hit, with the library replaced by garbage of the same size and mtime (the
    # same identity, so the same key): it cannot load, so a hit must never open it.
    st = os.stat(lib)
    with open(lib, "wb") as f:
        f.write(b"\0" * st.st_size)
    os.utime(lib, ns=(st.st_atime_ns, st.st_mtime_ns))
    warm = pykc(base + ["-o", outs[2]])
    check(warm.returncode == 0, f"warm fatbin compile: exit {warm.returncode}\n{warm.stderr}")
    check("cache hit for fatbin saxpy.fatbin" in warm.stderr, f"warm: no fatbin hit logged:\n{warm.stderr}")
    check(warm.returncode == 0 and open(os.path.join(outs[2], "saxpy.fatbin"), "rb").read() == data,
          "the cache's fatbin differs")
    missing = ["--nvfatbin", os.path.join(tmp, "none", "libnvfatbin.so.13")]
    # Cold without nvFatbin: exit 3, nothing but what compiled before it.
    fail = pykc([exe, "compile", SAXPY, "--arch", archs, "--fatbin", "--no-cache", "-o", outs[3]] + missing)
    check(fail.returncode == 3 and "cannot make saxpy.fatbin: cannot load nvFatbin (" in fail.stderr,
          f"no nvFatbin: exit {fail.returncode}\n{fail.stderr}")
    check(not os.path.exists(os.path.join(outs[3], "saxpy.fatbin")), "a fatbin without nvFatbin")
    print("checked: fatbin contents, determinism, cache hit without nvFatbin, exit 3 without it")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pykc", required=True)
    parser.add_argument("--tools", default="", help="folders holding nvdisasm and cuobjdump, ':'-separated")
    args = parser.parse_args()
    dirs = [d for d in args.tools.split(":") if d]
    TOOL_DIRS[:] = dirs
    nvdisasm, cuobjdump = tool("nvdisasm", dirs), tool("cuobjdump", dirs)
    if not nvdisasm or not cuobjdump:
        print(f"SKIP: needs nvdisasm and cuobjdump (found {nvdisasm}, {cuobjdump}); scripts/deps.sh installs them")
        return 77
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="pykc-arch-") as tmp:
        for section in (lambda: blackwell_cubins(args.pykc, nvdisasm, cuobjdump, tmp),
                        lambda: fatbin(args.pykc, cuobjdump, tmp)):
            before = len(failures)
            section()
            passed, failed = passed + (len(failures) == before), failed + (len(failures) != before)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
