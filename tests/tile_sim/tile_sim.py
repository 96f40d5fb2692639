#!/usr/bin/env python3
"""Runs the tile kernels of tests/gpu/kernels/tile_kernels*.py on the CPU.

pykc's tile lowering decides how tile elements map onto threads, where barriers and warp
shuffles go, and how edges are masked. This test checks those decisions without a GPU:
it takes the kernels' LLVM IR (`pykc inspect --emit llvm`), retargets it to x86-64,
replaces the NVPTX intrinsics with simrt.cpp's (one host thread per GPU thread, real
barriers), builds a shared library with clang, and compares every kernel with NumPy on
ragged sizes. The same kernels run on the H200 through tests/gpu/cases/tile_cases.py.

Exit status: 0 passed, 1 a mismatch, 77 skipped (no clang).
"""
import argparse
import ctypes
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shape_cases import shape_cases  # noqa: E402
from operator_cases import operator_cases  # noqa: E402
from float8_cases import float8_cases  # noqa: E402
from view_cases import view_cases  # noqa: E402
from tuple_cases import tuple_cases  # noqa: E402
from rowwise_cases import rowwise_cases  # noqa: E402
from advanced_cases import advanced_cases  # noqa: E402
from nested_cases import nested_cases  # noqa: E402
from static_cases import static_cases  # noqa: E402
from raw_cases import raw_cases  # noqa: E402
from consts_cases import consts_cases  # noqa: E402
from mma_scaled_cases import mma_scaled_cases  # noqa: E402
from tiledview_cases import tiledview_cases  # noqa: E402
from helperargs_cases import helperargs_cases  # noqa: E402
from closure_cases import closure_cases  # noqa: E402
from dataclass_cases import dataclass_cases  # noqa: E402
from reduce_cases import reduce_cases  # noqa: E402
from ctxmgr_cases import ctxmgr_cases  # noqa: E402
from misc25_cases import misc25_cases  # noqa: E402
from dataclass2_cases import dataclass2_cases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
X86_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
INTRINSICS = {
    "@llvm.nvvm.read.ptx.sreg.tid.x": "@sim_tid_x",
    "@llvm.nvvm.read.ptx.sreg.ctaid.x": "@sim_ctaid_x",
    "@llvm.nvvm.read.ptx.sreg.nctaid.x": "@sim_nctaid_x",
    "@llvm.nvvm.read.ptx.sreg.ctaid.y": "@sim_ctaid_y",
    "@llvm.nvvm.read.ptx.sreg.nctaid.y": "@sim_nctaid_y",
    "@llvm.nvvm.read.ptx.sreg.ctaid.z": "@sim_ctaid_z",
    "@llvm.nvvm.ex2.approx.ftz.f": "@sim_ex2",
    "@llvm.nvvm.ex2.approx.f": "@sim_ex2",
    "@llvm.nvvm.div.approx.ftz.f": "@sim_div",
    "@llvm.nvvm.div.approx.f": "@sim_div",
    "@llvm.nvvm.div.rz.f": "@sim_div",
    "@llvm.nvvm.add.rn.ftz.f": "@sim_add_rn_ftz_f",
    "@llvm.nvvm.add.rn.f": "@sim_add_rn_f",
    "@llvm.nvvm.add.rn.d": "@sim_add_rn_d",
    "@llvm.nvvm.add.rz.ftz.f": "@sim_add_rz_ftz_f",
    "@llvm.nvvm.add.rz.f": "@sim_add_rz_f",
    "@llvm.nvvm.add.rz.d": "@sim_add_rz_d",
    "@llvm.nvvm.add.rm.ftz.f": "@sim_add_rm_ftz_f",
    "@llvm.nvvm.add.rm.f": "@sim_add_rm_f",
    "@llvm.nvvm.add.rm.d": "@sim_add_rm_d",
    "@llvm.nvvm.add.rp.ftz.f": "@sim_add_rp_ftz_f",
    "@llvm.nvvm.add.rp.f": "@sim_add_rp_f",
    "@llvm.nvvm.add.rp.d": "@sim_add_rp_d",
    "@llvm.nvvm.mul.rn.ftz.f": "@sim_mul_rn_ftz_f",
    "@llvm.nvvm.mul.rn.f": "@sim_mul_rn_f",
    "@llvm.nvvm.mul.rn.d": "@sim_mul_rn_d",
    "@llvm.nvvm.mul.rz.ftz.f": "@sim_mul_rz_ftz_f",
    "@llvm.nvvm.mul.rz.f": "@sim_mul_rz_f",
    "@llvm.nvvm.mul.rz.d": "@sim_mul_rz_d",
    "@llvm.nvvm.mul.rm.ftz.f": "@sim_mul_rm_ftz_f",
    "@llvm.nvvm.mul.rm.f": "@sim_mul_rm_f",
    "@llvm.nvvm.mul.rm.d": "@sim_mul_rm_d",
    "@llvm.nvvm.mul.rp.ftz.f": "@sim_mul_rp_ftz_f",
    "@llvm.nvvm.mul.rp.f": "@sim_mul_rp_f",
    "@llvm.nvvm.mul.rp.d": "@sim_mul_rp_d",
    "@llvm.nvvm.fmax.ftz.nan.f": "@sim_fmax_ftz_nan_f",
    "@llvm.nvvm.fmax.ftz.f": "@sim_fmax_ftz_f",
    "@llvm.nvvm.fmin.ftz.nan.f": "@sim_fmin_ftz_nan_f",
    "@llvm.nvvm.fmin.ftz.f": "@sim_fmin_ftz_f",
    "@llvm.nvvm.barrier0.and": "@sim_barrier_and",
    "@llvm.nvvm.barrier0": "@sim_barrier",
    "@llvm.nvvm.shfl.sync.bfly.i32": "@sim_shfl_bfly",
    "@llvm.nvvm.f2tf32.rna": "@sim_f2tf32",
    "@llvm.nvvm.rcp.approx.ftz.f": "@sim_rcp_approx_ftz",
    "@llvm.nvvm.sqrt.approx.f": "@sim_sqrt_approx",
}


def _ldmatrix(name, trans):
    return (f"define internal {{ i32, i32, i32, i32 }} @{name}(ptr addrspace(3) %p) {{\n"
            "  %o = alloca [4 x i32]\n"
            f"  call void @sim_ldmatrix(ptr addrspace(3) %p, ptr %o, i32 {trans})\n"
            + "".join(f"  %g{i} = getelementptr i32, ptr %o, i64 {i}\n  %v{i} = load i32, ptr %g{i}\n"
                      for i in range(4))
            + "  %s0 = insertvalue { i32, i32, i32, i32 } poison, i32 %v0, 0\n"
            + "".join(f"  %s{i} = insertvalue {{ i32, i32, i32, i32 }} %s{i - 1}, i32 %v{i}, {i}\n"
                      for i in range(1, 4))
            + "  ret { i32, i32, i32, i32 } %s3\n}\n")


def _mma(name, operand, bf16):
    conv = "".join(f"  %i{i} = bitcast {operand} %x{i} to i32\n" for i in range(6))
    return (f"define internal {{ float, float, float, float }} @{name}("
            + ", ".join(f"{operand} %x{i}" for i in range(6)) + ", "
            + ", ".join(f"float %c{i}" for i in range(4)) + ") {\n"
            "  %o = alloca [4 x float]\n" + conv
            + "  call void @sim_mma(" + ", ".join(f"i32 %i{i}" for i in range(6)) + ", "
            + ", ".join(f"float %c{i}" for i in range(4)) + f", ptr %o, i32 {bf16})\n"
            + "".join(f"  %g{i} = getelementptr float, ptr %o, i64 {i}\n  %v{i} = load float, ptr %g{i}\n"
                      for i in range(4))
            + "  %s0 = insertvalue { float, float, float, float } poison, float %v0, 0\n"
            + "".join(f"  %s{i} = insertvalue {{ float, float, float, float }} %s{i - 1}, float %v{i}, {i}\n"
                      for i in range(1, 4))
            + "  ret { float, float, float, float } %s3\n}\n")


COLLECTIVE_DECLARES = {
    "ldmatrix": "declare void @sim_ldmatrix(ptr addrspace(3), ptr, i32)",
    "mma": "declare void @sim_mma(i32, i32, i32, i32, i32, i32, float, float, float, float, ptr, i32)",
}
# Warp-collective tensor-core intrinsics: IR wrappers around simrt.cpp's stand-ins.
COLLECTIVES = {
    "@llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3": ("@sim_ldm_x4_trans", _ldmatrix("sim_ldm_x4_trans", 1)),
    "@llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3": ("@sim_ldm_x4", _ldmatrix("sim_ldm_x4", 0)),
    "@llvm.nvvm.mma.m16n8k16.row.col.f32.f32": ("@sim_mma_f16", _mma("sim_mma_f16", "<2 x half>", 0)),
    "@llvm.nvvm.mma.m16n8k16.row.col.bf16": ("@sim_mma_bf16", _mma("sim_mma_bf16", "i32", 1)),
}


def retarget(module: str) -> tuple:
    """A module's kernels for the host, plus `wrap_<symbol>(const int64_t* args)` for each:
    (the symbols, the module's text)."""
    m = re.sub(r'target datalayout = ".*"', f'target datalayout = "{X86_LAYOUT}"', module)
    m = m.replace('target triple = "nvptx64-nvidia-cuda"', 'target triple = "x86_64-pc-linux-gnu"')
    m = m.replace("ptx_kernel ", "")
    for nv, sim in INTRINSICS.items():
        m = m.replace(nv, sim)
    # Output and traps (ct.assert_): simrt's vprintf and a trap that stops the thread.
    m = m.replace("@vprintf(", "@sim_vprintf(").replace("@llvm.trap()", "@sim_trap()")
    # The loops' opaque thread-id reads (tile_lower.cpp, lowerLoop).
    m = m.replace('call i32 asm sideeffect "mov.u32 $0, %tid.x;", "=r"()', "call i32 @sim_tid_x()")
    # Dynamic shared memory (a scratch buffer past 48 KiB): a defined array of sm_90's
    # 227 KiB and the 1024 bytes its start is rounded up by.
    m = re.sub(r'^(@"?[^ ]*__tile_dynamic"?) = external addrspace\(3\) global \[0 x i8\]',
               r"\1 = addrspace(3) global [233472 x i8] zeroinitializer", m, flags=re.M)
    # Programmatic dependent launch (griddepcontrol): one kernel at a time here, as on a
    # launch without PDL, where both are no-ops.
    m = re.sub(r'^\s*call void asm sideeffect "griddepcontrol\.[a-z_]+;".*$', "", m, flags=re.M)
    # ct.truediv's RoundingMode.FULL (div.full.f32): within 2 ulp of the quotient.
    m = re.sub(r'call float asm "div\.full(\.ftz)?\.f32 \$0, \$1, \$2;", "=f,f,f"', "call float @sim_div", m)
    # ct.tanh's RoundingMode.APPROX (tanh.approx.f32): libm's tanh.
    if "tanh.approx.f32" in m:
        m = m.replace('call float asm "tanh.approx.f32 $0, $1;", "=f,f"', "call float @sim_tanh_approx")
        m += "\ndeclare float @sim_tanh_approx(float)\n"
    extra, declares = [], set()
    for nv, (sim, body) in COLLECTIVES.items():
        if nv in m:
            m = re.sub(r"^declare .*" + re.escape(nv) + r"\(.*$", "", m, flags=re.M)
            m = m.replace(nv, sim)
            extra.append(body)
            declares.add(COLLECTIVE_DECLARES["ldmatrix" if "ldmatrix" in nv else "mma"])
    m += "\n" + "\n".join(extra + sorted(declares)) + "\n"
    left = set(re.findall(r"@llvm\.nvvm\.[\w.]+", m))
    if left:
        raise SystemExit(f"tile_sim: no CPU stand-in for {sorted(left)}")
    m = re.sub(r"^attributes #\d+ = .*$", "", m, flags=re.M)
    m = re.sub(r" #\d+", "", m)
    m = re.sub(r"^!.*$", "", m, flags=re.M)
    m = re.sub(r", ![\w.]+ !\d+", "", m)
    names, body = [], []
    for d in re.finditer(r"define void @(\S+)\((.*)\) \{", m):
        name, params = d.group(1), d.group(2)
        name = name.strip('"')
        names.append(name)
        types = [p.strip().split(" ")[0] for p in params.split(",") if p.strip()]
        body.append(f'define void @"wrap_{name}"(ptr %args) {{')
        for k, t in enumerate(types):
            body.append(f"  %p{k} = getelementptr i64, ptr %args, i64 {k}")
            body.append(f"  %v{k} = load {t}, ptr %p{k}")
        body.append(f'  call void @"{name}"(' + ", ".join(f"{t} %v{k}" for k, t in enumerate(types)) + ")")
        body += ["  ret void", "}"]
    return names, m + "\n" + "\n".join(body) + "\n"


class Sim:
    def __init__(self, lib_path):
        self.lib = ctypes.CDLL(lib_path)
        self.lib.sim_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                     ctypes.c_int]
        self.lib.sim_output.restype = ctypes.c_char_p
        self.keep = []

    def output(self):
        """What the kernels printed since the last call, and how many threads trapped."""
        return self.lib.sim_output().decode(), self.lib.sim_traps()

    def array(self, a):
        self.keep.append(a)
        return [a.ctypes.data] + list(a.shape) + [s // a.itemsize for s in a.strides]

    @staticmethod
    def f32(x):
        return struct.unpack("<I", struct.pack("<f", x))[0]

    def run(self, symbol, grid, threads, args):
        """`grid`: blocks along x, or (x, y)."""
        gx, gy = grid if isinstance(grid, tuple) else (grid, 1)
        w = getattr(self.lib, "wrap_" + symbol)
        buf = (ctypes.c_int64 * len(args))(*[a - (1 << 64) if a >= 1 << 63 else a for a in args])
        self.lib.sim_run(ctypes.cast(w, ctypes.c_void_p), buf, gx, gy, threads)


def build(pykc, clang, clangxx, kernels, work, extra=(), arch="sm_90"):
    """Compiles one kernel file for the CPU: a Sim, the symbols by kernel name (by full
    symbol too), the blocks. `extra`: more pykc arguments (--sig, --const)."""
    import json
    stem = os.path.splitext(os.path.basename(kernels))[0]
    work = os.path.join(work, f"{stem}_{len(os.listdir(work))}")
    os.makedirs(work)
    subprocess.check_call([pykc, "inspect", kernels, "--emit", "llvm", "--arch", arch, "-o", work,
                           *extra])
    text = open(os.path.join(work, f"{stem}.{arch}.ll")).read()
    manifest_dir = os.path.join(work, "out")
    subprocess.check_call([pykc, "compile", kernels, "--arch", arch, "-o", manifest_dir,
                           "--no-cache", *extra])
    manifest = json.load(open(os.path.join(manifest_dir, "manifest.json")))
    blocks = {k["symbol"]: k["tile"]["block"][0] for k in manifest["kernels"]}
    objects, symbols = [], {}
    for i, module in enumerate(m for m in re.split(r"(?=; ModuleID)", text) if "define" in m):
        names, ir = retarget(module)
        ll, obj = os.path.join(work, f"k{i}.ll"), os.path.join(work, f"k{i}.o")
        open(ll, "w").write(ir)
        subprocess.check_call([clang, "-O1", "-c", "-fPIC", "-Wno-override-module", ll, "-o", obj])
        objects.append(obj)
        for name in names:
            symbols[name.split("__")[0].replace("$002E", ".")] = name
            symbols[name] = name
    lib = os.path.join(work, "libsim.so")
    # compiler-rt's builtins: float32 -> bfloat16 rounding (__truncsfbf2) is a call on x86-64.
    rt = subprocess.run([clangxx, "--rtlib=compiler-rt", "-print-libgcc-file-name"], capture_output=True,
                        text=True).stdout.strip()
    subprocess.check_call([clangxx, "-O1", "-shared", "-fPIC", os.path.join(HERE, "simrt.cpp"),
                           *objects, *([rt] if os.path.exists(rt) else []), "-o", lib, "-lpthread"])
    return Sim(lib), symbols, blocks


def compile_lines(name):
    """The pykc arguments of a kernel file's `# pykc-compile:` lines (its --sig and --const
    specialisations, as tests/gpu/compile_kernel_file.sh passes them)."""
    args = []
    for line in open(os.path.join(ROOT, "tests/gpu/kernels", name)):
        if line.startswith("# pykc-compile:"):
            args += line[len("# pykc-compile:"):].split()
    return tuple(args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pykc", required=True)
    ap.add_argument("--only", metavar="FILE", action="append",
                    help="simulate only this kernel file of tests/gpu/kernels (repeatable), "
                         "e.g. --only tile_kernels10.py")
    a = ap.parse_args()
    clang = shutil.which("clang-19") or shutil.which("clang")
    clangxx = shutil.which("clang++-19") or shutil.which("clang++")
    if not clang or not clangxx:
        print("tile_sim: skipped (no clang)")
        return 77
    work = tempfile.mkdtemp(prefix="pykc-tile-sim-")
    try:
        failures = []
        for name, checker, extra, arch in (
                ("tile_kernels.py", check, (), "sm_90"), ("tile_kernels2.py", check2, (), "sm_90"),
                ("tile_kernels3.py", check3, (), "sm_90"),
                ("tile_kernels4.py", check_cases(atomic_cases, 20261203), (), "sm_90"),
                ("tile_kernels6.py", check_cases(shape_cases, 20261204), (), "sm_90"),
                ("tile_kernels7.py", check_cases(operator_cases, 20261205), (), "sm_90"),
                ("tile_kernels8.py", check_cases(float8_cases, 20261206, typed=True), (), "sm_90"),
                ("tile_kernels9.py", check_cases(view_cases, 20261207), (), "sm_90"),
                ("tile_kernels10.py", check_cases(tuple_cases, 20261208), (), "sm_90"),
                ("tile_kernels12.py", check_cases(advanced_cases, 20261210), (), "sm_90"),
                ("tile_kernels13.py", check_cases(nested_cases, 20261211), compile_lines("tile_kernels13.py"),
                 "sm_90"),
                ("tile_kernels14.py", check_cases(static_cases, 20261212), compile_lines("tile_kernels14.py"),
                 "sm_90"),
                ("tile_kernels15.py", check_cases(raw_cases, 20261213), (), "sm_90"),
                ("tile_kernels20.py", check_cases(consts_cases, 20261218), compile_lines("tile_kernels20.py"),
                 "sm_90"),
                ("tile_kernels19.py", check_cases(mma_scaled_cases, 20261217, typed=True), (), "sm_90"),
                ("tile_kernels16.py", check_cases(tiledview_cases, 20261214), (), "sm_90"),
                ("tile_kernels18.py", check_cases(helperargs_cases, 20261216), (), "sm_90"),
                ("tile_kernels21.py", check_cases(closure_cases, 20261219), (), "sm_90"),
                ("tile_kernels22.py", check_cases(dataclass_cases, 20261220), (), "sm_90"),
                ("tile_kernels24.py", check_cases(ctxmgr_cases, 20261222), (), "sm_90"),
                ("tile_kernels23.py", check_cases(reduce_cases, 20261207), compile_lines("tile_kernels23.py"), "sm_90"),
                ("tile_kernels25.py", check_cases(misc25_cases, 20261223), (), "sm_90"),
                ("tile_kernels26.py", check_cases(dataclass2_cases, 20261224), compile_lines("tile_kernels26.py"),
                 "sm_90"),
                ("tile_kernels11.py", check_cases(rowwise_cases, 20261209), compile_lines("tile_kernels11.py"),
                 "sm_90"),
                ("tile_kernels.py", check_facts, FACTS_ARGS, "sm_90"),
                ("tile_attention_kernels.py", check_attention, ATTENTION_ARGS, "sm_90"),
                ("tile_attention_kernels.py", check_attention_mma, ATTENTION_MMA_ARGS, "sm_90"),
                ("tile_attention_kernels.py", check_attention_wgmma_layout, ATTENTION_WGMMA_ARGS, "sm_90a")):
            if a.only and name not in a.only:
                continue
            kernels = os.path.join(ROOT, "tests/gpu/kernels", name)
            failures += checker(*build(a.pykc, clang, clangxx, kernels, work, extra, arch))
        if failures:
            print(f"tile_sim: {len(failures)} failed: " + ", ".join(failures))
            return 1
        print("tile_sim: all passed")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(sim, sym, blocks):
    rng = np.random.default_rng(20261130)
    failures = []

    def run(kernel, grid, args):
        sim.run(sym[kernel], grid, blocks[sym[kernel]], args)

    def expect(what, got, want, rtol=1e-5, atol=1e-6):
        g = np.asarray(got).astype(np.float64)
        ok = g.shape == np.shape(want) and np.allclose(g, want, rtol=rtol, atol=atol)
        err = float(np.max(np.abs(g - want))) if g.size and g.shape == np.shape(want) else 0.0
        print(f"{'ok  ' if ok else 'FAIL'} {what}: max abs err {err:.2e}")
        if not ok:
            failures.append(what)

    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    # 1001: the last chunk of a vectorizable array lies partly inside (each element checked).
    for n in (1, 1000, 1001, 5000, 3 * 1024):
        x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        for kernel, tile, dt, scale in (("vector_add", 1024, np.float32, 1),
                                        ("vector_add_small", 32, np.float32, 2),
                                        ("vector_add_f16", 2048, np.float16, 1)):
            a, b = x.astype(dt), y.astype(dt)
            c = np.full(n, np.nan, dt)
            run(kernel, cdiv(n, tile), sim.array(a) + sim.array(b) + sim.array(c))
            want = (a.astype(np.float64) + scale * b.astype(np.float64)).astype(dt).astype(np.float64)
            expect(f"{kernel} n={n}", c, want, 0, 0)
            # Misaligned views: the whole-tile path without vector instructions.
            big = np.full(n + 1, np.nan, dt)
            c = big[1:]
            run(kernel, cdiv(n, tile), sim.array(np.concatenate([[0], a]).astype(dt)[1:])
                + sim.array(b) + sim.array(c))
            expect(f"{kernel} n={n} misaligned", c, want, 0, 0)

    def softmax_ref(v):
        v = v.astype(np.float64)
        e = np.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    for rows, cols in ((5, 1000), (3, 1024), (2, 1)):
        x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
        y = np.full_like(x, np.nan)
        run("softmax", rows, sim.array(x) + sim.array(y))
        expect(f"softmax {rows}x{cols}", y, softmax_ref(x))
        x16 = x.astype(np.float16)
        y16 = np.full_like(x16, np.nan)
        run("softmax_f16", rows, sim.array(x16) + sim.array(y16))
        expect(f"softmax_f16 {rows}x{cols}", y16, softmax_ref(x16), 2e-3, 1e-4)
    # Column slices of a wider matrix: rows 8-aligned (vector instructions), the row's end
    # inside a chunk (that chunk's elements checked, one by one); nothing written past it.
    for rows, cols, width in ((3, 1001, 1008), (2, 1020, 1024)):
        x = (rng.standard_normal((rows, width)) * 4).astype(np.float32)
        for kernel, dt, rtol, atol in (("softmax", np.float32, 1e-5, 1e-6),
                                       ("softmax_f16", np.float16, 2e-3, 1e-4)):
            xs = x.astype(dt)[:, :cols]
            y = np.full((rows, width), np.nan, dt)
            run(kernel, rows, sim.array(xs) + sim.array(y[:, :cols]))
            expect(f"{kernel} {rows}x{cols} of {width}", y[:, :cols], softmax_ref(xs), rtol, atol)
            if not np.isnan(y[:, cols:]).all():
                print(f"FAIL {kernel} {rows}x{cols} of {width}: wrote past the row's end")
                failures.append(f"{kernel} {rows}x{cols} of {width} (past the end)")
    for rows, cols in ((9, 200), (4, 256), (1, 3)):
        x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
        y = np.full_like(x, np.nan)
        run("softmax_rows", cdiv(rows, 4), sim.array(x) + sim.array(y))
        expect(f"softmax_rows {rows}x{cols}", y, softmax_ref(x))
    for rows, cols in ((3, 1300), (2, 512), (3, 1)):
        x = (rng.standard_normal((rows, cols)) * 3 + 1).astype(np.float32)
        w, b = rng.standard_normal(cols).astype(np.float32), rng.standard_normal(cols).astype(np.float32)
        y = np.full_like(x, np.nan)
        run("layer_norm", rows, sim.array(x) + sim.array(w) + sim.array(b) + sim.array(y)
            + [sim.f32(1e-5)])
        x64 = x.astype(np.float64)
        m = x64.mean(1, keepdims=True)
        v = ((x64 - m) ** 2).mean(1, keepdims=True)
        expect(f"layer_norm {rows}x{cols}", y, (x64 - m) / np.sqrt(v + 1e-5) * w + b, 1e-4, 1e-4)
    for cols in (100, 32, 7):
        x = rng.standard_normal((64, cols)).astype(np.float32)
        nb = cdiv(cols, 32)
        sums, maxs, mins = (np.full(cols, np.nan, np.float32) for _ in range(3))
        total = np.full(nb, np.nan, np.float32)
        run("col_stats", nb, sim.array(x) + sim.array(sums) + sim.array(maxs) + sim.array(mins)
            + sim.array(total))
        expect(f"col_stats sums {cols}", sums, x.astype(np.float64).sum(0), 1e-5, 1e-4)
        expect(f"col_stats maxs {cols}", maxs, x.max(0), 0, 0)
        expect(f"col_stats mins {cols}", mins, np.minimum(x, 0.5).min(0), 0, 0)
        pad = np.zeros((64, nb * 32))
        pad[:, :cols] = np.where(x > 0, x, 0)
        expect(f"col_stats total {cols}", total, pad.reshape(64, nb, 32).sum(axis=(0, 2)), 1e-5, 1e-3)
    for n in (1, 1000, 20000):
        a = rng.integers(-10000, 10000, n).astype(np.int32)
        out = np.full(n, -1, np.int32)
        run("int_ops", 7, sim.array(a) + sim.array(out))
        expect(f"int_ops n={n}", out, (a // 3 + a % 5 + np.arange(n) + (a % 7) ** 3).astype(np.int64), 0, 0)
    return failures


def check2(sim, sym, blocks):
    """tests/gpu/kernels/tile_kernels2.py against NumPy."""
    rng = np.random.default_rng(20261201)
    failures = []

    def run(kernel, grid, args):
        sim.run(sym[kernel], grid, blocks[sym[kernel]], args)

    def expect(what, got, want, rtol=0.0, atol=0.0):
        g, w = np.asarray(got).astype(np.float64), np.asarray(want).astype(np.float64)
        ok = g.shape == w.shape and np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        with np.errstate(invalid="ignore"):
            diff = np.abs(g - w) if g.shape == w.shape else np.zeros(0)
        diff = diff[~np.isnan(diff)]
        err = float(diff.max()) if diff.size else 0.0
        print(f"{'ok  ' if ok else 'FAIL'} {what}: max abs err {err:.2e}")
        if not ok:
            failures.append(what)

    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    # MatMul's swizzle_2d: every output tile written once, scaled by its row tile's parity.
    for m, n in ((100, 150), (300, 64), (32, 64), (1000, 20)):
        a = rng.standard_normal((m, n)).astype(np.float16)
        c = np.full((m, n), np.nan, np.float32)
        run("swizzled_scale", cdiv(m, 32) * cdiv(n, 64), sim.array(a) + sim.array(c))
        scale = np.where((np.arange(m) // 32) % 2 == 0, 2.0, 0.5)[:, None]
        expect(f"swizzled_scale {m}x{n}", c, a.astype(np.float64) * scale)
    # tfloat32: round to nearest, ties to even, on the 13 dropped bits (cuBLAS's TF32).
    x = rng.standard_normal(3000).astype(np.float32) * np.float32(1e3)
    bits = x.view(np.uint32)
    bits[:8] = [0x3f801000, 0xbf801000, 0x3f800fff, 0x3f803000, 0x7f7fffff, 0x7f800000,
                0xff800000, 0x00001000]
    x = bits.view(np.float32)
    x[8] = np.nan
    y = np.full_like(x, 7.0)
    run("round_tf32", cdiv(x.size, 512), sim.array(x) + sim.array(y))
    finite = np.isfinite(x)
    odd = (bits >> np.uint32(13)) & np.uint32(1)
    want = np.where(finite, (bits + np.uint32(0xfff) + odd) & np.uint32(0xffffe000), bits)
    expect("round_tf32", y, want.astype(np.uint32).view(np.float32))
    # Helpers: nested, defaults, keywords, an early return, min/max/abs.
    for rows, cols in ((5, 256), (3, 100)):
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = np.full_like(x, np.nan)
        last = np.full(rows, -1, np.int32)
        run("helpers", rows, sim.array(x) + sim.array(y) + sim.array(last))
        t = np.zeros((rows, 256))
        t[:, :cols] = x
        c = t - t.sum(1, keepdims=True) / 256
        expect(f"helpers {rows}x{cols}", y, (3 * c + np.abs(c))[:, :cols], 1e-5, 1e-5)
        pid = np.arange(rows)
        expect(f"helpers last {rows}", last, np.maximum(pid - 1, 0) * 1000 + np.minimum(pid + 1, rows - 1))
    # A float16 helper in a loop (the kernel's layouts and the loop's barriers inside it).
    for rows, cols in ((3, 2048), (2, 1500)):
        x = rng.standard_normal((rows, cols)).astype(np.float16)
        y = np.full_like(x, np.nan)
        sums = np.full(rows, np.nan, np.float32)
        run("helpers_f16", rows, sim.array(x) + sim.array(y) + sim.array(sums))
        expect(f"helpers_f16 {rows}x{cols}", y, 2 * x.astype(np.float64))
        expect(f"helpers_f16 sums {rows}x{cols}", sums, x.astype(np.float64).sum(1), 1e-5, 1e-3)
    # argmax / argmin along rows (NaN the worst, as cuTile's default; first of ties) and
    # over the whole tile.
    for rows, cols in ((9, 500), (4, 512), (3, 7)):
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        x[0, cols // 2] = x[0, cols // 3] = 10.0
        x[1, cols - 1] = np.nan
        x[1, cols // 2] = np.nan
        x[2, 0] = -10.0
        x[2, cols - 1] = -10.0
        nb = cdiv(rows, 4)
        amax, amin = np.full(rows, -1, np.int32), np.full(rows, -1, np.int32)
        flat = np.full(nb, -1, np.int32)
        run("arg_rows", nb, sim.array(x) + sim.array(amax) + sim.array(amin) + sim.array(flat))
        expect(f"argmax rows {rows}x{cols}", amax, np.nanargmax(x, axis=1))
        expect(f"argmin rows {rows}x{cols}", amin, np.nanargmin(x, axis=1))
        pad = np.full((nb * 4, 512), -np.inf, np.float32)
        pad[:rows, :cols] = x
        expect(f"argmax flat {rows}x{cols}", flat, np.nanargmax(pad.reshape(nb, -1), axis=1))
    for n in (1000, 64, 3):
        x = rng.standard_normal(n).astype(np.float32)
        x[n // 2] = np.nan if n > 100 else x[n // 2]
        nb = cdiv(n, 64)
        amax, amin = np.full(nb, -1, np.int32), np.full(nb, -1, np.int32)
        run("arg_small", nb, sim.array(x) + sim.array(amax) + sim.array(amin))
        pad = np.full(nb * 64, np.nan, np.float32)
        pad[:n] = x
        hi, lo = np.where(np.arange(nb * 64) < n, pad, -np.inf), np.where(np.arange(nb * 64) < n, pad, np.inf)
        expect(f"argmax small n={n}", amax, np.nanargmax(hi.reshape(nb, 64), axis=1))
        expect(f"argmin small n={n}", amin, np.nanargmin(lo.reshape(nb, 64), axis=1))
    for rows, cols in ((64, 100), (40, 32), (1, 5)):
        x = rng.integers(-5, 5, (rows, cols)).astype(np.int32)
        nb = cdiv(cols, 32)
        amax, amin = np.full(cols, -1, np.int32), np.full(cols, -1, np.int32)
        run("arg_cols_i32", nb, sim.array(x) + sim.array(amax) + sim.array(amin))
        expect(f"argmax cols int32 {rows}x{cols}", amax, np.argmax(x, axis=0))
        expect(f"argmin cols int32 {rows}x{cols}", amin, np.argmin(x, axis=0))
    # reshape, permute, transpose, broadcast_to, expand_dims, t[:, None].
    for rows in (32, 40, 16):
        x = rng.standard_normal((rows, 64)).astype(np.float32)
        nb = cdiv(rows, 16)
        xt = np.full((64, rows), np.nan, np.float32)
        p3 = np.full((nb * 8, 16, 8), np.nan, np.float32)
        rel = np.full_like(x, np.nan)
        run("shapes", nb, sim.array(x) + sim.array(xt) + sim.array(p3) + sim.array(rel))
        pad = np.zeros((nb * 16, 64))
        pad[:rows] = x
        expect(f"transpose {rows}x64", xt, x.T)
        expect(f"reshape+permute {rows}x64", p3, pad.reshape(nb, 16, 8, 8).transpose(0, 3, 1, 2).reshape(nb * 8, 16, 8))
        blocks_ = pad.reshape(nb, 16, 64)
        c = blocks_ - blocks_.sum(2, keepdims=True) / 64
        r = c * blocks_.max(1, keepdims=True) + blocks_
        expect(f"broadcast_to/expand_dims {rows}x64", rel, r.reshape(nb * 16, 64)[:rows], 1e-5, 1e-5)
    for r, c in ((64, 96), (33, 70), (32, 32)):
        x = rng.standard_normal((r, c)).astype(np.float16)
        y = np.full((c, r), np.nan, np.float16)
        run("transpose_f16", cdiv(r, 32) * cdiv(c, 32), sim.array(x) + sim.array(y))
        expect(f"transpose f16 {r}x{c}", y, x.T)
    # Division by one value: IEEE quotients bit for bit (NaN for NaN), on divisors and
    # numerators around the edges of the reciprocal path's range and special values.
    for cols, s in ((1024, 3.0), (1000, -7.1e-20), (1024, 2.0 ** -124 * 1.7), (1024, np.inf)):
        x, d = division_values(rng, 96, cols)
        y, z = np.full_like(x, 7.0), np.full_like(x, 7.0)
        run("div_uniform", x.shape[0], sim.array(x) + sim.array(d) + sim.array(y) + sim.array(z)
            + [sim.f32(s)])
        with np.errstate(all="ignore"):
            for what, got, want in ((f"div_uniform by row {x.shape}", y, x / d[:, None]),
                                    (f"div_uniform by {s:g} {x.shape}", z, x / np.float32(s))):
                if not same_bits(what, got, want):
                    failures.append(what)
    return failures


def gather_ref(x, idx, pad=0, mask=None):
    """NumPy's x[idx...] with `pad` where an index is outside x or `mask` is False."""
    idx = np.broadcast_arrays(*idx)
    inside = np.ones(idx[0].shape, bool)
    for d, i in enumerate(idx):
        inside &= (i >= 0) & (i < x.shape[d])
    if mask is not None:
        inside &= mask
    safe = tuple(np.where(inside, i, 0) for i in idx)
    return np.where(inside, x[safe], np.broadcast_to(pad, inside.shape)).astype(x.dtype)


def scatter_ref(out, idx, value, mask=None):
    """`out` with value stored at idx where inside (and mask); duplicate indices: the
    candidates of each target, for the caller to compare against."""
    idx = np.broadcast_arrays(*idx)
    value = np.broadcast_to(value, idx[0].shape)
    inside = np.ones(idx[0].shape, bool)
    for d, i in enumerate(idx):
        inside &= (i >= 0) & (i < out.shape[d])
    if mask is not None:
        inside &= np.broadcast_to(mask, inside.shape)
    want = out.copy()
    cand = {}
    for k in zip(*np.nonzero(inside)):
        t = tuple(int(i[k]) for i in idx)
        cand.setdefault(t, set()).add(out.dtype.type(value[k]).item())
        want[t] = value[k]
    return want, cand


def atomic_cases(run, arr, rng):
    """The kernels of tests/gpu/kernels/tile_kernels4.py (atomics) with NumPy references:
    yields (what, got, want, kind) with kind "exact", "close" (float sums) or "bool"
    (a property that must hold). `run(kernel, grid, args)` runs a kernel, `arr(a)` passes
    an array (the CPU simulator's or the GPU's); both leave results in the NumPy arrays."""
    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    # Histogram: 5000 elements into 37 bins (many collisions), bins outside skipped.
    for n, nbins in ((5000, 37), (256, 1), (700, 300)):
        tiles = cdiv(n, 256)
        bins = rng.integers(-3, nbins + 3, tiles * 256).astype(np.int32)
        bins[n:] = -1
        h0 = rng.integers(0, 50, nbins).astype(np.int32)
        hist, old = h0.copy(), np.full(tiles * 256, -7, np.int32)
        run("histogram", tiles, arr(bins) + arr(hist) + arr(old))
        inside = (bins >= 0) & (bins < nbins)
        yield f"histogram n={n} bins={nbins}", hist, h0 + np.bincount(bins[inside], minlength=nbins), "exact"
        ok = bool((old[~inside] == 0).all())
        for b in range(nbins):
            got = np.sort(old[inside & (bins == b)])
            ok &= bool(np.array_equal(got, h0[b] + np.arange(got.size)))
        yield f"histogram n={n} old values (each bin's counts once, 0 outside)", ok, True, "bool"
    # Float sums: order-dependent rounding (float32/float64), exact sums (float16).
    for kernel, dt, idt, tile, m, tol in (("scatter_add_f32", np.float32, np.int64, 128, 64, 1e-5),
                                          ("scatter_add_f64", np.float64, np.int32, 64, 50, 1e-12),
                                          ("scatter_add_f16", np.float16, np.int32, 256, 40, 0)):
        n = 3000
        tiles = cdiv(n, tile)
        x = (rng.integers(-8, 9, tiles * tile) * 0.25).astype(dt) if dt == np.float16 else \
            rng.standard_normal(tiles * tile).astype(dt)
        idx = rng.integers(-2, m + 2, tiles * tile).astype(idt)
        idx[n:] = m
        base = (rng.integers(-8, 9, 2 * m) * 0.25).astype(dt) if dt == np.float16 else \
            rng.standard_normal(2 * m).astype(dt)
        acc = base[::2] if kernel == "scatter_add_f32" else base[:m].copy()
        want = acc.astype(np.float64).copy()
        inside = (idx >= 0) & (idx < m)
        np.add.at(want, idx[inside], x[inside].astype(np.float64))
        run(kernel, tiles, arr(x) + arr(idx) + arr(acc))
        yield f"{kernel} (collisions, out of bounds skipped)", acc, want, ("close", tol)
    # Integer max/min/and/or/xor over colliding indices.
    n, m = 2000, 50
    tiles = cdiv(n, 128)
    v = rng.integers(-(1 << 30), 1 << 30, tiles * 128).astype(np.int32)
    idx = rng.integers(-1, m + 1, tiles * 128).astype(np.int32)
    starts = [rng.integers(-(1 << 30), 1 << 30, m).astype(np.int32) for _ in range(5)]
    outs = [s_.copy() for s_ in starts]
    run("int_rmw", tiles, arr(v) + arr(idx) + sum((arr(o) for o in outs), []))
    inside = (idx >= 0) & (idx < m)
    for name, ufunc, got, start in zip(("max", "min", "and", "or", "xor"),
                                       (np.maximum, np.minimum, np.bitwise_and, np.bitwise_or,
                                        np.bitwise_xor), outs, starts):
        want = start.copy()
        ufunc.at(want, idx[inside], v[inside])
        yield f"int_rmw atomic_{name} int32", got, want, "exact"
    tiles = cdiv(n, 64)
    u = rng.integers(0, 1 << 32, tiles * 64, dtype=np.uint64).astype(np.uint32)
    w = rng.integers(-(1 << 62), 1 << 62, tiles * 64, dtype=np.int64)
    idx = rng.integers(-1, m + 1, tiles * 64).astype(np.int32)
    inside = (idx >= 0) & (idx < m)
    umx, umn = (rng.integers(0, 1 << 32, m, dtype=np.uint64).astype(np.uint32) for _ in range(2))
    lmx, lmn = (rng.integers(-(1 << 62), 1 << 62, m, dtype=np.int64) for _ in range(2))
    lsum = rng.integers(0, 1 << 63, m, dtype=np.uint64)
    start = [a.copy() for a in (umx, umn, lmx, lmn, lsum)]
    run("wide_rmw", tiles, arr(u) + arr(w) + arr(idx) + arr(umx) + arr(umn) + arr(lmx) + arr(lmn) + arr(lsum))
    for name, ufunc, got, st, val in (("max uint32", np.maximum, umx, start[0], u),
                                      ("min uint32", np.minimum, umn, start[1], u),
                                      ("max int64", np.maximum, lmx, start[2], w),
                                      ("min int64", np.minimum, lmn, start[3], w),
                                      ("add uint64", np.add, lsum, start[4], u.astype(np.uint64))):
        want = st.copy()
        ufunc.at(want, idx[inside], val[inside])
        yield f"wide_rmw atomic_{name}", got, want, "exact"
    # Exchange over a permutation (plus out-of-bounds targets): old values exact.
    n = 1000
    tiles = cdiv(n, 256)
    perm = np.concatenate([rng.permutation(n), np.full(tiles * 256 - n, n + 5)]).astype(np.int32)
    perm[:3] = [-1, n, n + 100] if n > 3 else perm[:3]
    vals = rng.standard_normal(tiles * 256).astype(np.float32)
    y0 = rng.standard_normal(n).astype(np.float32)
    y, old = y0.copy(), np.full(tiles * 256, np.nan, np.float32)
    run("xchg_perm", tiles, arr(vals) + arr(perm) + arr(y) + arr(old))
    inside = (perm >= 0) & (perm < n)
    want = y0.copy()
    want[perm[inside]] = vals[inside]
    want_old = np.where(inside, y0[np.clip(perm, 0, n - 1)], 0).astype(np.float32)
    yield "xchg_perm target", y, want, "exact"
    yield "xchg_perm old values (0 outside)", old, want_old, "exact"
    # Compare-and-swap over distinct indices: half match, the rest do not.
    for kernel, dt, idt, tile in (("cas_i32", np.int32, np.int32, 128), ("cas_f64", np.float64, np.int64, 64)):
        n = 700
        tiles = cdiv(n, tile)
        idx = np.concatenate([rng.permutation(n), rng.integers(n, n + 9, tiles * tile - n)]).astype(idt)
        idx[0] = -1
        y0 = (rng.integers(-1000, 1000, n)).astype(dt)
        match = rng.random(tiles * tile) < 0.5
        inside = (idx >= 0) & (idx < n)
        at = np.clip(idx, 0, n - 1)
        expected = np.where(match, y0[at], y0[at] + 1).astype(dt)
        desired = rng.integers(-1000, 1000, tiles * tile).astype(dt)
        y, old = y0.copy(), np.full(tiles * tile, 99, dt)
        run(kernel, tiles, arr(y) + arr(expected) + arr(desired) + arr(idx) + arr(old))
        want = y0.copy()
        hit = inside & match
        want[idx[hit]] = desired[hit]
        yield f"{kernel} target", y, want, "exact"
        yield f"{kernel} old values (the expected value outside)", old, np.where(inside, y0[at], expected), "exact"
    # Scalar indices: one winner of a CAS race, a counter's old values a permutation.
    for g in (1, 7, 64):
        flag, count = np.zeros(1, np.int32), np.zeros(1, np.int32)
        seen, order = np.full(g, -5, np.int32), np.full(g, -5, np.int32)
        run("claim", g, arr(flag) + arr(count) + arr(seen) + arr(order))
        winners = np.flatnonzero(seen == 0)
        ok = winners.size == 1 and flag[0] == winners[0] + 1 and bool((np.delete(seen, winners) == flag[0]).all())
        yield f"claim grid={g}: one CAS winner, the others see it", ok, True, "bool"
        yield f"claim grid={g}: counter old values", np.sort(order), np.arange(g, dtype=np.int32), "exact"
        yield f"claim grid={g}: counter", count, np.array([g], np.int32), "exact"
    # 2-D: (TM, 1) x (1, TN) indices into a column-strided grid.
    for (h, w), mr in (((20, 30), 48), ((16, 32), 16), ((3, 5), 32)):
        gm = cdiv(mr, 16)
        rows = rng.integers(-2, h + 2, gm * 16).astype(np.int32)
        cols = rng.integers(-2, w + 2, 32).astype(np.int32)
        wts = rng.standard_normal((gm * 16, 32)).astype(np.float32)
        g0 = rng.standard_normal((h, 2 * w)).astype(np.float32)
        grid = g0.copy()
        view = grid[:, ::2]
        old = np.full((gm * 16, 32), np.nan, np.float32)
        run("add_2d", gm, arr(wts) + arr(rows) + arr(cols) + arr(view) + arr(old))
        r, c = np.broadcast_arrays(rows[:, None], cols[None, :])
        inside = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        want = g0[:, ::2].astype(np.float64)
        np.add.at(want, (r[inside], c[inside]), wts[inside])
        yield f"add_2d {h}x{w} (strided, out of bounds skipped)", view, want, ("close", 1e-5)
        yield f"add_2d {h}x{w}: columns between untouched", grid[:, 1::2], g0[:, 1::2], "exact"
        flat = np.where(inside, r * w + c, -1)
        once = inside & (np.bincount(flat[inside], minlength=h * w)[np.clip(flat, 0, None)] == 1)
        want_old = np.where(inside, g0[:, ::2][np.clip(r, 0, h - 1), np.clip(c, 0, w - 1)], 0)
        ok = bool(np.array_equal(old[once], want_old[once])) and bool((old[~inside] == 0).all())
        yield f"add_2d {h}x{w}: old values (single updates exact, 0 outside)", ok, True, "bool"
    # A scalar update (bound + block id) broadcast over indices into a strided view.
    n = 300
    tiles = 5
    idx = rng.integers(-1, n + 1, tiles * 64).astype(np.int32)
    base = rng.integers(0, 100, 3 * n).astype(np.int32)
    t0 = base[::3].copy()
    target = base[::3]
    run("max_scalar_update", tiles, arr(idx) + arr(target) + [50])
    want = t0.copy()
    for b in range(tiles):
        i = idx[b * 64:(b + 1) * 64]
        i = i[(i >= 0) & (i < n)]
        np.maximum.at(want, i, np.int32(50 + b))
    yield "max_scalar_update (strided view, scalar update)", target, want, "exact"
    # Spin locks (while on atomic_cas): every row added to its group's accumulator once.
    for rows, groups in ((40, 3), (64, 1), (5, 8)):
        x = rng.standard_normal((rows, 64)).astype(np.float32)
        acc = np.zeros((groups, 64), np.float32)
        locks = np.zeros(groups, np.int32)
        run("locked_rows", rows, arr(x) + arr(acc) + arr(locks))
        want = np.zeros((groups, 64))
        np.add.at(want, np.arange(rows) % groups, x.astype(np.float64))
        yield f"locked_rows {rows} rows into {groups} (spin lock)", acc, want, ("close", 1e-4)
        yield f"locked_rows {rows} rows: locks released", locks, np.zeros(groups, np.int32), "exact"
    # while with continue and break, while True with break.
    x = rng.standard_normal((12, 64)).astype(np.float32)
    counts = np.array([0, 1, 2, 3, 5, 6, 7, 10], np.int32)
    out = np.full((counts.size, 64), np.nan, np.float32)
    run("while_rows", counts.size, arr(x) + arr(counts) + arr(out))
    want = np.stack([x[[r for r in range(min(n, 6)) if r != 2]].astype(np.float64).sum(0) + 1000.0 * n
                     for n in counts])
    yield "while_rows (while, continue, break, while True)", out, want, ("close", 1e-4)


def check_cases(cases, seed, typed=False):
    """A checker for a shared case list (atomic_cases, shape_cases) against NumPy;
    `typed`: the cases' `arr` takes a second argument (a float8 name, ignored here: the
    simulator passes the bytes)."""
    def checker(sim, sym, blocks):
        rng = np.random.default_rng(seed)
        failures = []

        def run(kernel, grid, args):
            # Scalars as the ABI passes them: float32 by its bits, bools as 0/1.
            args = [sim.f32(float(a)) if isinstance(a, np.float32) else
                    int(a) if isinstance(a, (bool, np.bool_)) else a for a in args]
            sim.run(sym[kernel], grid, blocks[sym[kernel]], args)
        run.output = sim.output  # printed text and trapped threads (the simulator only)

        array = (lambda a, name=None: sim.array(a)) if typed else sim.array
        for what, got, want, kind in cases(run, array, rng):
            if kind == "exact-nan":
                g, w = np.asarray(got), np.asarray(want)
                ok = g.shape == w.shape and np.array_equal(g, w, equal_nan=True)
                detail = f": {int((~((g == w) | (np.isnan(g) & np.isnan(w)))).sum())} of {w.size} differ"
            elif kind == "bool":
                ok = got is True or got == want
                detail = ""
            elif kind == "exact":
                g, w = np.asarray(got), np.asarray(want)
                ok = g.shape == w.shape and np.array_equal(g, w)
                detail = f": {int((g != w).sum()) if g.shape == w.shape else -1} of {w.size} differ"
                if not ok and w.size <= 16:
                    detail += f" (got {g.tolist()}, want {w.tolist()})"
            else:
                g, w = np.asarray(got).astype(np.float64), np.asarray(want, np.float64)
                ok = g.shape == w.shape and np.allclose(g, w, rtol=kind[1], atol=kind[1])
                detail = f": max abs err {float(np.max(np.abs(g - w))) if g.shape == w.shape else -1:.2e}"
            print(f"{'ok  ' if ok else 'FAIL'} {what}{detail}")
            if not ok:
                failures.append(what)
        return failures
    return checker


def check3(sim, sym, blocks):
    """tests/gpu/kernels/tile_kernels3.py (ct.gather, ct.scatter) against NumPy."""
    rng = np.random.default_rng(20261202)
    failures = []

    def run(kernel, grid, args):
        sim.run(sym[kernel], grid, blocks[sym[kernel]], args)

    def expect(what, got, want):
        g, w = np.asarray(got), np.asarray(want)
        ok = g.shape == w.shape and np.array_equal(g, w)
        bad = int((g != w).sum()) if g.shape == w.shape else -1
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {bad} of {w.size} differ")
        if not ok:
            failures.append(what)

    def expect_scatter(what, got, want, cand):
        # Every target with duplicate indices holds one of its candidates; the rest as want.
        g = got.copy()
        dup_ok = True
        for t, values in cand.items():
            if len(values) > 1:
                dup_ok &= g[t].item() in values
                g[t] = want[t]
        expect(what + (" (duplicates: one of the values)" if dup_ok else " (a duplicate got no candidate)"),
               g if dup_ok else np.zeros_like(g), want)

    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    # 1-D gathers from strided views: indices in range, negative and past the end.
    for kernel, dt, idt, tile in (("gather_f32", np.float32, np.int32, 256),
                                  ("gather_f16", np.float16, np.int64, 1024),
                                  ("gather_i32", np.int32, np.int32, 64)):
        for n, m in ((1000, 700), (5, 3000), (64, 64)):
            base = (rng.standard_normal(2 * n) * 100).astype(dt)
            x = base[::2]
            idx = rng.integers(-n // 2 - 3, n + n // 2 + 3, cdiv(m, tile) * tile).astype(idt)
            idx[:4] = [0, n - 1, -1, n]
            y = np.full(idx.size, 77, dt)
            run(kernel, cdiv(m, tile), sim.array(x) + sim.array(idx) + sim.array(y))
            expect(f"{kernel} n={n} m={m} (strided, out of bounds 0)", y, gather_ref(x, (idx,)))
    # Per-channel gather and a ct.where-safe unchecked gather.
    for n, c in ((1000, 7), (512, 512), (3, 1)):
        x = rng.standard_normal(n).astype(np.float32)
        mean = rng.standard_normal(c).astype(np.float32)
        nb = cdiv(n, 512)
        y = np.full(nb * 512, np.nan, np.float32)
        run("gather_channels", nb, sim.array(x) + sim.array(mean) + sim.array(y[:n]) + [c])
        expect(f"gather_channels n={n} C={c}", y[:n], x - mean[np.arange(n) % c])
        if not np.isnan(y[n:]).all():
            failures.append(f"gather_channels n={n}: wrote past the end")
    # 2-D gathers: (TM, 1) x (1, TN) broadcast indices into a column-strided view.
    for (h, w), (m, n) in (((50, 70), (40, 100)), ((16, 32), (16, 32)), ((3, 5), (20, 7))):
        x = rng.standard_normal((h, 2 * w)).astype(np.float32)[:, 1::2]
        gm, gn = cdiv(m, 16), cdiv(n, 32)
        rows = rng.integers(-3, h + 3, gm * 16).astype(np.int32)
        cols = rng.integers(-3, w + 3, gn * 32).astype(np.int32)
        p, q, s = (np.full((gm * 16, gn * 32), np.nan, np.float32) for _ in range(3))
        run("gather_2d", (gm, gn), sim.array(x) + sim.array(rows) + sim.array(cols) + sim.array(p)
            + sim.array(q) + sim.array(s))
        r, c = rows[:, None], cols[None, :]
        keep = (r + c) % 3 != 0
        pad = (np.arange(gn * 32) % 32 + 100).astype(np.float32)[None, :]
        expect(f"gather_2d padding -1 {h}x{w}", p, gather_ref(x, (r, c), -1.0))
        expect(f"gather_2d mask {h}x{w}", q, gather_ref(x, (r, c), 0.0, keep))
        expect(f"gather_2d mask, padding tile {h}x{w}", s, gather_ref(x, (r, c), pad, keep))
    for h, w in ((100, 130), (32, 64)):
        x = rng.standard_normal((h, 2 * w)).astype(np.float16)[:, :w]
        gm, gn = cdiv(h + 10, 32), cdiv(w, 64)
        rows = rng.integers(-5, h + 5, gm * 32).astype(np.int32)
        y = np.full((gm * 32, gn * 64), np.nan, np.float16)
        run("gather_rows_f16", (gm, gn), sim.array(x) + sim.array(rows) + sim.array(y))
        expect(f"gather_rows_f16 {h}x{w}", y,
               gather_ref(x, (rows[:, None], np.arange(gn * 64)[None, :]), -2.0))
    x = rng.integers(-1000, 1000, (6, 5)).astype(np.int32)
    y = np.full(8 * 128, -1, np.int32)
    run("gather_scalar", 8, sim.array(x) + sim.array(y))
    want = np.arange(128)[None, :] + np.where(np.arange(8) < 6, x[np.minimum(np.arange(8), 5), 3], 0)[:, None]
    expect("gather_scalar (rows 6, 7 outside: 0)", y, want.reshape(-1).astype(np.int32))
    # 1-D scatters: masks, out-of-bounds skips, int32 values into float16, duplicates.
    for n, m, dups in ((1000, 1000, False), (300, 2048, True), (7, 512, True)):
        nb = cdiv(m, 512)
        if dups:
            idx = rng.integers(-20, n + 20, nb * 512).astype(np.int32)
        else:
            idx = np.concatenate([rng.permutation(n), rng.integers(n, n + 50, nb * 512 - n)]).astype(np.int32)
            idx[-1] = -1
        vals = rng.standard_normal(nb * 512).astype(np.float32)
        base = np.full(2 * n, -9.0, np.float32)
        out = base[::2]
        out2 = np.full(n, -9.0, np.float16)
        run("scatter_1d", nb, sim.array(out) + sim.array(out2) + sim.array(idx) + sim.array(vals))
        want, cand = scatter_ref(np.full(n, -9.0, np.float32), (idx,), vals, vals > 0)
        expect_scatter(f"scatter_1d masked n={n} m={m} (strided)", out, want, cand)
        if not (base[1::2] == -9.0).all():
            failures.append(f"scatter_1d n={n}: wrote between strided elements")
        want2, cand2 = scatter_ref(np.full(n, -9.0, np.float16), (idx,), np.arange(nb * 512))
        expect_scatter(f"scatter_1d int32 -> float16 n={n}", out2, want2, cand2)
    # 2-D scatters: broadcast (TM, 1) x (1, TN) indices (permutations, so no duplicates,
    # plus out-of-range rows and columns), a mask, a scalar value, a broadcast row value.
    for h, w in ((20, 24), (16, 16), (40, 9)):
        gm, gn = cdiv(h + 4, 16), cdiv(w + 4, 16)
        rows = np.concatenate([rng.permutation(h), [-1, h, h + 5, -7]]).astype(np.int32)
        cols = np.concatenate([rng.permutation(w), [w, -2, w + 1, -1]]).astype(np.int32)
        rows = np.concatenate([rows, np.full(gm * 16 - rows.size, h + 100, np.int32)])
        cols = np.concatenate([cols, np.full(gn * 16 - cols.size, -100, np.int32)])
        src = rng.integers(-50, 50, (gm * 16, gn * 16)).astype(np.int32)
        out = np.full((h, 2 * w), -1000, np.int32)[:, ::2]
        out2 = np.full((h, w), -1000, np.int32)
        out3 = np.full((2 * h, w), -1000.0, np.float32)[::2]
        run("scatter_2d", (gm, gn), sim.array(out) + sim.array(out2) + sim.array(out3) + sim.array(rows)
            + sim.array(cols) + sim.array(src))
        r, c = rows[:, None], cols[None, :]
        init = np.full((h, w), -1000, np.int32)
        expect(f"scatter_2d masked {h}x{w} (strided)", out, scatter_ref(init, (r, c), src, src >= 0)[0])
        expect(f"scatter_2d scalar 7 {h}x{w}", out2, scatter_ref(init, (r, c), 7)[0])
        expect(f"scatter_2d row value {h}x{w}", out3,
               scatter_ref(init.astype(np.float32), (r, c), (np.arange(gn * 16) % 16)[None, :])[0])
    out = np.full(20, -1.0, np.float32)
    run("scatter_scalar", 12, sim.array(out))
    want = np.full(20, -1.0, np.float32)
    want[0:20:2] = np.arange(10) + 0.5
    expect("scatter_scalar (blocks 10, 11 outside)", out, want)
    return failures


def same_bits(what, got, want):
    """Whether `got` has `want`'s bits (any NaN for a NaN); prints the outcome."""
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    print(f"{'ok  ' if same.all() else 'FAIL'} {what}: {int((~same).sum())} of {got.size} differ")
    if not same.all():
        i = int(np.flatnonzero(~same.ravel())[0])
        print(f"     first at {i}: {got.ravel()[i]!r} != {want.ravel()[i]!r}")
    return bool(same.all())


def division_values(rng, rows, cols):
    """Numerators (rows x cols) and one divisor per row for div_uniform: special divisors
    (zeros, infinities, NaN, subnormals, the edges 2^-124 and 2^124 of the reciprocal
    path and just past them, all-ones mantissas) and random ones of every exponent; per
    row, numerators of one kind: inside the range the reciprocal path takes for that
    divisor (with zeros of both signs), at its edges and one step past them, random bit
    patterns (every exponent, NaN, infinities, subnormals), or softmax-like (0, 1]."""
    f32 = lambda bits: np.array(bits, np.uint32).view(np.float32)  # noqa: E731
    special = f32([0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
                   0x807fffff, 0x00800000, 0x01800000, 0x01ffffff, 0x7d800000, 0x7dffffff,
                   0x7e000000, 0x01000000, 0x3fffffff, 0xbfffffff, 0x3f800000, 0x3f800001,
                   0x7f7fffff, 0x40490fdb])
    d = rng.integers(0, 1 << 32, rows, dtype=np.uint64).astype(np.uint32)
    # Random signs and mantissas, exponents -130..130 (mostly the reciprocal path's range).
    d = ((d & 0x807fffff) | ((rng.integers(-3, 255, rows) + 0).clip(1, 254).astype(np.uint32) << 23))
    d = d.view(np.float32).copy()
    d[:special.size] = special
    x = np.empty((rows, cols), np.float32)
    for r in range(rows):
        eb = int((d[r].view(np.uint32) >> 23) & 0xff)
        lo, hi = max(27, eb - 124), min(253, eb + 125)  # biased exponents of the fast range
        if lo > hi:
            lo, hi = 100, 150
        mant = rng.integers(0, 1 << 23, cols, dtype=np.uint64).astype(np.uint32)
        sign = rng.integers(0, 2, cols, dtype=np.uint64).astype(np.uint32) << 31
        kind = r % 4
        if kind == 0:
            e = rng.integers(lo, hi + 1, cols).astype(np.uint32)
            bits = sign | (e << 23) | mant
            bits[rng.random(cols) < 0.05] = 0
            bits[rng.random(cols) < 0.05] = 0x80000000
        elif kind == 1:
            e = np.where(rng.random(cols) < 0.5, lo, hi).astype(np.uint32)
            bits = sign | (e << 23) | mant
            if r % 8 == 5:  # one element one step past an edge: that thread divides exactly
                bits[rng.integers(0, cols)] = (max(lo - 1, 0) << 23) | int(mant[0])
                bits[rng.integers(0, cols)] = (min(hi + 1, 255) << 23) | int(mant[-1])
        elif kind == 2:
            bits = rng.integers(0, 1 << 32, cols, dtype=np.uint64).astype(np.uint32)
            n = min(cols, special.size)  # rows may be shorter than the special values
            bits[:n] = special.view(np.uint32)[:n]
        else:
            bits = rng.random(cols).astype(np.float32).view(np.uint32)
        x[r] = bits.view(np.float32)
    return x, d


# Instances compiled with array facts (cuTile's specialisation: 16-byte aligned bases,
# 16-divisible extents, strides divisible by 16 bytes): their loads and stores keep only
# the paths those facts allow. Run on arrays that hold the facts, at ragged tile edges.
_V32 = "float32[::1].assume(alignment=16, shape_divisible_by=16)"
_V16 = "float16[::1].assume(alignment=16, shape_divisible_by=16)"
_M32 = "float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), shape_divisible_by=(1, 16))"
_M16 = "float16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 1), shape_divisible_by=(1, 16))"
FACTS_ARGS = (
    "--sig", f"vector_add({_V32}, {_V32}, {_V32})",
    "--sig", f"vector_add_f16({_V16}, {_V16}, {_V16})",
    "--sig", f"softmax({_M32}, {_M32})",
    "--sig", f"softmax_f16({_M16}, {_M16})",
)


def check_facts(sim, sym, blocks):
    """FACTS_ARGS's instances against NumPy."""
    rng = np.random.default_rng(20261202)
    failures = []
    facts = {k.split("__")[0]: k for k in sym if "q16" in k}

    def run(kernel, grid, arrays, extra=()):
        args = []
        for a in arrays:
            assert a.ctypes.data % 16 == 0, "the test's arrays must hold the facts"
            args += sim.array(a)
        sim.run(facts[kernel], grid, blocks[facts[kernel]], args + list(extra))

    def expect(what, got, want, rtol, atol):
        g = np.asarray(got).astype(np.float64)
        ok = np.allclose(g, want, rtol=rtol, atol=atol)
        print(f"{'ok  ' if ok else 'FAIL'} facts {what}: max abs err {float(np.max(np.abs(g - want))):.2e}")
        if not ok:
            failures.append("facts " + what)

    def aligned(shape, dt):
        """An array whose base is 16-byte aligned (NaN-filled)."""
        n = int(np.prod(shape))
        raw = np.full(n + 16, np.nan, dt)
        skip = (-raw.ctypes.data % 16) // raw.itemsize
        return raw[skip:skip + n].reshape(shape)

    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    for n in (16, 1008, 5008, 3 * 1024):
        for kernel, tile, dt in (("vector_add", 1024, np.float32), ("vector_add_f16", 2048, np.float16)):
            a, b, c = aligned(n, dt), aligned(n, dt), aligned(n, dt)
            a[:], b[:] = rng.standard_normal(n), rng.standard_normal(n)
            run(kernel, cdiv(n, tile), (a, b, c))
            want = (a.astype(np.float64) + b.astype(np.float64)).astype(dt).astype(np.float64)
            expect(f"{kernel} n={n}", c, want, 0, 0)
    # Rows of a wider matrix (a 16-divisible row length inside a 16-divisible stride).
    for rows, cols, width in ((3, 1008, 1024), (2, 1024, 1024), (4, 16, 32)):
        for kernel, dt, rtol, atol in (("softmax", np.float32, 1e-5, 1e-6),
                                       ("softmax_f16", np.float16, 2e-3, 1e-4)):
            x, y = aligned((rows, width), dt), aligned((rows, width), dt)
            x[:] = rng.standard_normal((rows, width)) * 4
            run(kernel, rows, (x[:, :cols], y[:, :cols]))
            v = x[:, :cols].astype(np.float64)
            e = np.exp(v - v.max(axis=1, keepdims=True))
            expect(f"{kernel} {rows}x{cols} of {width}", y[:, :cols], e / e.sum(axis=1, keepdims=True),
                   rtol, atol)
            if not np.isnan(y[:, cols:]).all():
                print(f"FAIL facts {kernel} {rows}x{cols} of {width}: wrote past the row's end")
                failures.append(f"facts {kernel} (past the end)")
    if len(facts) != 4:
        failures.append(f"facts: {len(facts)} instances with facts, not 4")
    return failures


# The attention kernel (written as cuTile's FMHA sample) with small tiles, so that its
# products run on CUDA cores (no mma.sync on the CPU): float32 and float16 arrays, 128
# threads, masks for causal and ragged key blocks, grouped-query heads, a 2-D grid.
ATTENTION_SIG = ",".join(["{0}[:,:,:,::1]"] * 4 + ["float32", "int32"])
ATTENTION_ARGS = (
    "--sig", "attn_fwd(" + ATTENTION_SIG.format("float32") + ")",
    "--sig", "attn_fwd(" + ATTENTION_SIG.format("float16") + ")",
    "--const", "Dqk=16", "--const", "Dv=16", "--const", "H=2", "--const", "TILE_M=32",
    "--const", "TILE_N=16", "--const", "GROUP=1", "--const", "GROUP=2",
    "--const", "CAUSAL=0", "--const", "CAUSAL=1", "--const", "EVEN_K=0", "--const", "EVEN_K=1",
)


# The same kernel with float16 tiles big enough for tensor cores (mma.sync and ldmatrix
# through simrt.cpp's warp-collective stand-ins): 64x32 score tiles on 4 warps, and 64x64
# on 8 warps (two warps share each row: the row max/sum combine across warps).
ATTENTION_MMA_ARGS = (
    "--sig", "attn_fwd(" + ATTENTION_SIG.format("float16") + ")",
    "--const", "Dqk=32", "--const", "Dqk=64", "--const", "Dv=32", "--const", "H=2", "--const", "TILE_M=64",
    "--const", "TILE_N=32", "--const", "TILE_N=64", "--const", "GROUP=2",
    "--const", "CAUSAL=0", "--const", "CAUSAL=1", "--const", "EVEN_K=0",
)


# The GPU suite's tile shape (128x64 scores, Dqk = Dv = 64, 8 warps) for sm_90a: the
# accumulators take wgmma's register layout (each warp 16 rows, all columns) while the
# products, whose operands the pipeline does not hold, run on mma.sync.
ATTENTION_WGMMA_ARGS = (
    "--sig", "attn_fwd(" + ATTENTION_SIG.format("float16") + ")",
    "--const", "Dqk=64", "--const", "Dv=64", "--const", "H=2", "--const", "TILE_M=128",
    "--const", "TILE_N=64", "--const", "GROUP=1", "--const", "CAUSAL=1", "--const", "EVEN_K=0",
)


def check_attention_wgmma_layout(sim, sym, blocks):
    """ATTENTION_WGMMA_ARGS against float64 NumPy."""
    sys.path.insert(0, os.path.join(ROOT, "tests/gpu/cases"))
    sys.path.insert(0, os.path.join(ROOT, "tests/gpu"))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from tile_attention_cases import reference
    rng = np.random.default_rng(20261204)
    heads, d, q_len, k_len, pos = 2, 64, 100, 150, 40
    q = rng.standard_normal((1, heads, q_len, d)).astype(np.float16)
    k = rng.standard_normal((1, heads, k_len, d)).astype(np.float16)
    v = rng.standard_normal((1, heads, k_len, d)).astype(np.float16)
    out = np.full((1, heads, q_len, d), np.nan, np.float16)
    symbol = ("attn_fwd__f16a4C_f16a4C_f16a4C_f16a4C_f32_i32__KDqk_64__KDv_64__KH_2__KTILE_M_128"
              "__KTILE_N_64__KGROUP_1__KCAUSAL_T__KEVEN_K_F")
    scale = 1.0 / np.sqrt(d)
    sim.run(symbol, (1, heads), blocks[symbol],
            sim.array(q) + sim.array(k) + sim.array(v) + sim.array(out) + [sim.f32(scale), pos])
    want = reference(q, k, v, scale, True, pos, 1)
    g = out.astype(np.float64)
    ok = np.all(np.isfinite(g)) and np.allclose(g, want, rtol=1e-2, atol=4e-3)
    err = float(np.nanmax(np.abs(g - want)))
    what = f"attention sm_90a layout 128x64 q{q_len} k{k_len} causal pos{pos} ({blocks[symbol]} threads)"
    print(f"{'ok  ' if ok else 'FAIL'} {what}: max abs err {err:.2e}")
    return [] if ok else [what]


def check_attention_mma(sim, sym, blocks):
    """ATTENTION_MMA_ARGS against float64 NumPy."""
    sys.path.insert(0, os.path.join(ROOT, "tests/gpu/cases"))
    sys.path.insert(0, os.path.join(ROOT, "tests/gpu"))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from tile_attention_cases import reference
    rng = np.random.default_rng(20261203)
    failures = []
    heads, tm, d, group = 2, 64, 32, 2
    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    for tn, dqk in ((32, 32), (64, 32), (32, 64)):
        for batch, q_len, k_len, causal, pos in ((1, 70, 100, False, 0), (1, 64, 130, True, 66)):
            q = rng.standard_normal((batch, heads, q_len, dqk)).astype(np.float16)
            k = rng.standard_normal((batch, heads // group, k_len, dqk)).astype(np.float16)
            v = rng.standard_normal((batch, heads // group, k_len, d)).astype(np.float16)
            out = np.full((batch, heads, q_len, d), np.nan, np.float16)
            symbol = (f"attn_fwd__f16a4C_f16a4C_f16a4C_f16a4C_f32_i32__KDqk_{dqk}__KDv_32__KH_2"
                      f"__KTILE_M_64__KTILE_N_{tn}__KGROUP_2__KCAUSAL_{'T' if causal else 'F'}__KEVEN_K_F")
            scale = 1.0 / np.sqrt(dqk)
            sim.run(symbol, (cdiv(q_len, tm), batch * heads), blocks[symbol],
                    sim.array(q) + sim.array(k) + sim.array(v) + sim.array(out)
                    + [sim.f32(scale), pos])
            want = reference(q, k, v, scale, causal, pos, group)
            g = out.astype(np.float64)
            ok = np.all(np.isfinite(g)) and np.allclose(g, want, rtol=1e-2, atol=4e-3)
            err = float(np.nanmax(np.abs(g - want)))
            what = (f"attention mma f16 tile {tm}x{tn} d{dqk}/{d} q{q_len} k{k_len}{' causal' if causal else ''}"
                    f" pos{pos} ({blocks[symbol]} threads)")
            print(f"{'ok  ' if ok else 'FAIL'} {what}: max abs err {err:.2e}")
            if not ok:
                failures.append(what)
    return failures


def check_order_div(sim, sym, blocks):
    """order_div of tile_attention_kernels.py: 2-D order= on a load and a store, truediv modes."""
    rng = np.random.default_rng(20261205)
    failures = []
    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    for rows, cols in ((40, 24), (16, 16), (33, 50)):
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = (rng.random((cols, rows)) + 0.5).astype(np.float32)
        out = np.full((rows, cols), np.nan, np.float32)
        s = 3.0
        sim.run(sym["order_div"], (cdiv(cols, 16), cdiv(rows, 16)), blocks[sym["order_div"]],
                sim.array(x) + sim.array(y) + sim.array(out) + [sim.f32(s)])
        want = x.astype(np.float64) / y.T.astype(np.float64) + x.astype(np.float64) / s
        ok = np.allclose(out, want, rtol=1e-6, atol=1e-6)
        err = float(np.nanmax(np.abs(out - want)))
        print(f"{'ok  ' if ok else 'FAIL'} order_div {rows}x{cols}: max abs err {err:.2e}")
        if not ok:
            failures.append(f"order_div {rows}x{cols}")
    return failures


def check_attention(sim, sym, blocks):
    """tests/gpu/kernels/tile_attention_kernels.py (ATTENTION_ARGS) against float64 NumPy."""
    sys.path.insert(0, os.path.join(ROOT, "tests/gpu/cases"))
    sys.path.insert(0, os.path.join(ROOT, "tests/gpu"))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from tile_attention_cases import reference
    rng = np.random.default_rng(20261202)
    failures = []
    heads, tm, tn, d = 2, 32, 16, 16
    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    failures += check_order_div(sim, sym, blocks)
    for dt, code in ((np.float32, "f32"), (np.float16, "f16")):
        for batch, q_len, k_len, causal, group, pos in (
                (2, 40, 48, False, 1, 0), (1, 32, 50, False, 2, 0), (1, 37, 37, True, 1, 0),
                (2, 20, 64, True, 2, 30), (1, 16, 45, True, 1, 29)):
            even = k_len % tn == 0
            q = rng.standard_normal((batch, heads, q_len, d)).astype(dt)
            k = rng.standard_normal((batch, heads // group, k_len, d)).astype(dt)
            v = rng.standard_normal((batch, heads // group, k_len, d)).astype(dt)
            out = np.full((batch, heads, q_len, d), np.nan, dt)
            symbol = (f"attn_fwd__{code}a4C_{code}a4C_{code}a4C_{code}a4C_f32_i32__KDqk_16__KDv_16__KH_2"
                      f"__KTILE_M_32__KTILE_N_16__KGROUP_{group}__KCAUSAL_{'T' if causal else 'F'}"
                      f"__KEVEN_K_{'T' if even else 'F'}")
            scale = 1.0 / np.sqrt(d)
            sim.run(symbol, (cdiv(q_len, tm), batch * heads), blocks[symbol],
                    sim.array(q) + sim.array(k) + sim.array(v) + sim.array(out)
                    + [sim.f32(scale), pos])
            want = reference(q, k, v, scale, causal, pos, group)
            g = out.astype(np.float64)
            # float16: inputs and P rounded to float16, the output too.
            atol, rtol = (1e-5, 1e-5) if dt == np.float32 else (4e-3, 1e-2)
            ok = np.all(np.isfinite(g)) and np.allclose(g, want, rtol=rtol, atol=atol)
            err = float(np.nanmax(np.abs(g - want)))
            what = (f"attention {code} b{batch} q{q_len} k{k_len}{' causal' if causal else ''}"
                    f" gqa{group} pos{pos}")
            print(f"{'ok  ' if ok else 'FAIL'} {what}: max abs err {err:.2e}")
            if not ok:
                failures.append(what)
    return failures


if __name__ == "__main__":
    sys.exit(main())
