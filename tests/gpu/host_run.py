"""Run pykc's lowered LLVM IR of a kernel file on the host, one thread at a time, with
glibc's libm standing in for libdevice: a check of the lowering's control flow and
special-value logic on a machine without a GPU (values of transcendental functions
differ from libdevice's by a few ulps). Needs clang 19.

    python3 tests/gpu/host_run.py <module.ll> -> a ctypes library; see load()
"""

import ctypes
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

_SREG = """
int host_tid_x_v, host_ntid_x_v = 1, host_ctaid_x_v, host_nctaid_x_v = 1;
int host_tid_x(void) { return host_tid_x_v; }
int host_ntid_x(void) { return host_ntid_x_v; }
int host_ctaid_x(void) { return host_ctaid_x_v; }
int host_nctaid_x(void) { return host_nctaid_x_v; }
"""


def load(ll_path: str, workdir: str) -> ctypes.CDLL:
    """Compile the NVPTX module at ll_path for the host and load it."""
    text = open(ll_path).read()
    text = re.sub(r'target datalayout = ".*"\n', "", text)
    text = text.replace('target triple = "nvptx64-nvidia-cuda"', 'target triple = "x86_64-pc-linux-gnu"')
    text = text.replace("define ptx_kernel ", "define ")
    for reg in ("tid.x", "ntid.x", "ctaid.x", "nctaid.x"):
        text = text.replace(f"@llvm.nvvm.read.ptx.sreg.{reg}", "@host_" + reg.replace(".", "_"))
    # libdevice's fast float32 variants and the approximate sqrt: libm's functions.
    text = re.sub(r"@__nv_fast_(\w+)", r"@\1", text)
    text = text.replace("@llvm.nvvm.sqrt.approx.f(", "@sqrtf(")
    text = re.sub(r"@__nv_(\w+)", r"@\1", text)
    seen, lines = set(), []
    for line in text.split("\n"):           # the renames may declare a function twice
        m = re.match(r"declare .*?@([\w.]+)\(", line)
        if m and m.group(1) in seen:
            continue
        if m:
            seen.add(m.group(1))
        lines.append(line)
    text = "\n".join(lines)
    # PTX `exit` (a thread ending inside a device function): abort here.
    text = text.replace('call void asm sideeffect "exit;", ""()', "call void @abort()")
    if "@abort()" in text:
        text += "\ndeclare void @abort()\n"
    if "llvm.nvvm" in text:
        raise RuntimeError("the module uses NVVM intrinsics this runner does not provide")
    ll = os.path.join(workdir, "host.ll")
    c = os.path.join(workdir, "sreg.c")
    so = os.path.join(workdir, "host.so")
    open(ll, "w").write(text)
    open(c, "w").write(_SREG)
    clang = shutil.which("clang-19") or "clang"          # must read LLVM 19's IR
    subprocess.run([clang, "-shared", "-fPIC", "-O1", "-Wno-override-module", "-o", so, ll, c,
                    "-lm"], check=True)
    return ctypes.CDLL(so)


def array_args(a: np.ndarray) -> list:
    """The ABI's parameters of an array: data pointer, shapes, strides in elements."""
    return ([ctypes.c_void_p(a.ctypes.data)] + [ctypes.c_int64(s) for s in a.shape]
            + [ctypes.c_int64(s // a.itemsize) for s in a.strides])


def launch(lib: ctypes.CDLL, symbol: str, threads: int, *arrays, only=None) -> None:
    """Run `symbol` for thread indices 0..threads-1 (one block of `threads`), or for
    the indices in `only`."""
    fn = getattr(lib, symbol)
    fn.restype = None
    args = [x for a in arrays for x in (array_args(a) if isinstance(a, np.ndarray) else [a])]
    ctypes.c_int.in_dll(lib, "host_ntid_x_v").value = threads
    for t in (range(threads) if only is None else only):
        ctypes.c_int.in_dll(lib, "host_tid_x_v").value = t
        fn(*args)


if __name__ == "__main__":
    import sys
    with tempfile.TemporaryDirectory() as d:
        load(sys.argv[1], d)
        print("compiled for the host")
