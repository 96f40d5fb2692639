#!/usr/bin/env python3
"""A compile never calls the CUDA driver (docs/compile.md, "No CUDA driver in a compile").

nvJitLink and NVRTC dlopen libcuda.so.1 and call cuInit when they can, which on
a host with a visible GPU initialises the driver (100-230 ms on the H200 host).
pykc opens them in a link-map namespace whose libcuda.so.1 is its own stub.
This test puts a fake libcuda.so.1 first on LD_LIBRARY_PATH whose every entry
point records the call in a file; `pykc compile` (nvJitLink), a compile that
links a `.cu` file (NVRTC) and `pykc --version` must leave that file empty and
produce the same cubin as before. With PYKC_CUDA_DRIVER=visible (the escape
hatch) the fake must be called: the test can fail. CPU only.

    tests/driver/no_cuda_driver_test.py --pykc build/bin/pykc
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

FAKE_DRIVER = r'''
#include <stdio.h>
#include <stdlib.h>
static void record(const char* what) {
  const char* path = getenv("FAKE_CUDA_LOG");
  FILE* f = path ? fopen(path, "a") : 0;
  if (f) { fprintf(f, "%s\n", what); fclose(f); }
}
int cuInit(unsigned flags) { (void)flags; record("cuInit"); return 100; }
int cuDriverGetVersion(int* v) { record("cuDriverGetVersion"); if (v) *v = 0; return 100; }
int cuGetExportTable(const void** t, const void* id) { (void)id; record("cuGetExportTable"); if (t) *t = 0; return 100; }
'''

KERNEL = '''from numba import cuda

@cuda.jit("void(float32[::1])")
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * 2.0
'''

LINKED = '''import os
from numba import cuda

mul = cuda.declare_device("mul_f32", "float32(float32, float32)",
                          link=os.path.join(os.path.dirname(__file__), "ops.cu"))

@cuda.jit("void(float32[::1])")
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = mul(x[i], x[i])
'''

OPS = '''extern "C" __device__ int mul_f32(float* ret, float a, float b) { *ret = a * b; return 0; }
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pykc", required=True)
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        print("SKIP: no C compiler for the fake libcuda.so.1")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        libdir = os.path.join(tmp, "fake")
        os.mkdir(libdir)
        src = os.path.join(tmp, "fake.c")
        with open(src, "w") as f:
            f.write(FAKE_DRIVER)
        subprocess.run([compiler, "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", "-o",
                        os.path.join(libdir, "libcuda.so.1"), src], check=True)
        for name, text in (("k.py", KERNEL), ("linked.py", LINKED), ("ops.cu", OPS)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        log = os.path.join(tmp, "calls.log")
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        env["FAKE_CUDA_LOG"] = log
        env.pop("PYKC_CUDA_DRIVER", None)

        def run(argv, extra=None):
            if os.path.exists(log):
                os.remove(log)
            e = dict(env, **(extra or {}))
            r = subprocess.run([args.pykc] + argv, env=e, capture_output=True, text=True)
            calls = open(log).read().split() if os.path.exists(log) else []
            return r, calls

        failures = 0

        def check(what, ok, detail=""):
            nonlocal failures
            print(("ok   " if ok else "FAIL ") + what + (f": {detail}" if detail and not ok else ""))
            failures += 0 if ok else 1

        cubins = {}
        for label, extra in (("isolated", None), ("visible", {"PYKC_CUDA_DRIVER": "visible"})):
            out = os.path.join(tmp, "out-" + label)
            r, calls = run(["compile", os.path.join(tmp, "k.py"), "--arch", "sm_90", "--no-cache", "-o", out], extra)
            check(f"compile ({label}) exits 0", r.returncode == 0, r.stderr)
            if label == "isolated":
                check("compile calls no driver entry point", calls == [], " ".join(calls))
            else:
                check("PYKC_CUDA_DRIVER=visible lets nvJitLink call the driver", "cuInit" in calls,
                      " ".join(calls) or "no call")
            path = os.path.join(out, "k.sm_90.cubin")
            cubins[label] = open(path, "rb").read() if os.path.exists(path) else None
        check("the cubin is the same bytes either way",
              cubins["isolated"] is not None and cubins["isolated"] == cubins["visible"])

        r, calls = run(["compile", os.path.join(tmp, "linked.py"), "--arch", "sm_90", "--no-cache",
                        "-o", os.path.join(tmp, "out-linked")])
        check("compile linking a .cu file (NVRTC) exits 0", r.returncode == 0, r.stderr)
        check("NVRTC calls no driver entry point", calls == [], " ".join(calls))

        r, calls = run(["--version"])
        check("--version exits 0", r.returncode == 0, r.stderr)
        check("--version calls no driver entry point", calls == [], " ".join(calls))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
