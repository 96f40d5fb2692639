#!/usr/bin/env python3
"""A built wheel, installed as users install it (scripts/wheel.sh --check runs this).

In a fresh virtualenv: `pip install WHEEL` (NVIDIA's wheels come as dependencies),
then `pykc --help`, `pykc compile examples/saxpy.py` (cubins), `python -m pykc compile`,
`python -m pykc version` (libpykc from the wheel), `python -m pykc run` of a numba.cuda
program whose kernel compiles at decoration (PYKC_ARCH: no GPU needed), and the same
with PYKC_CUDA_HOME=none, where nvJitLink and libdevice must come from NVIDIA's wheels
in the virtualenv (LD_DEBUG=files, and strace when installed), and examples/cpp_launch
built with find_package(pykc) from the wheel's pykc/ folder. Prints the timings.

    check_wheel.py dist/pykc-*.whl [--find-links DIR] [--keep]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PROGRAM = '''
import math
import numpy as np
from numba import cuda   # pykc's, under `python -m pykc run`

@cuda.jit("void(float32, float32[::1], float32[::1])")
def soft_axpy(a, x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + math.tanh(x[i])

ptx = soft_axpy.inspect_asm()
ptx = next(iter(ptx.values())) if isinstance(ptx, dict) else ptx
print("compiled soft_axpy:", len(ptx), "bytes of PTX,", ptx.count(".entry"), "entry")
'''
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def timed(cmd, **kw):
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("wheel")
    parser.add_argument("--find-links", help="a folder of wheels to install from, offline")
    parser.add_argument("--keep", action="store_true", help="keep the virtualenv")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="pykc-wheel-")
    venv = os.path.join(tmp, "venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYKC_EXECUTABLE", "PYKC_LIBRARY")}
    env["PYKC_CACHE_DIR"] = os.path.join(tmp, "cache")
    try:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        if args.find_links:
            pip += ["--no-index", "--find-links", args.find_links]
        r, t_install = timed(pip + [os.path.abspath(args.wheel)], env=env)
        if not check(r.returncode == 0, f"pip install: exit {r.returncode}\n{r.stderr[-3000:]}"):
            return 1
        print(f"pip install: {t_install:.1f} s")
        exe = os.path.join(venv, "bin", "pykc")
        python = os.path.join(venv, "bin", "python")
        saxpy = os.path.join(ROOT, "examples", "saxpy.py")

        r, _ = timed([exe, "--help"], env=env)
        check(r.returncode == 0 and "pykc compile" in r.stdout, f"pykc --help: exit {r.returncode}\n{r.stderr}")
        r, t_cold = timed([exe, "compile", saxpy, "--arch", "sm_80,sm_90", "-o", os.path.join(tmp, "out")], env=env)
        check(r.returncode == 0 and all(os.path.exists(os.path.join(tmp, "out", f"saxpy.{a}.cubin"))
                                        for a in ("sm_80", "sm_90")),
              f"pykc compile: exit {r.returncode}\n{r.stderr}")
        r, t_warm = timed([exe, "compile", saxpy, "--arch", "sm_80,sm_90", "-o", os.path.join(tmp, "out")], env=env)
        check(r.returncode == 0, f"pykc compile (warm): exit {r.returncode}\n{r.stderr}")
        print(f"pykc compile examples/saxpy.py --arch sm_80,sm_90: cold {t_cold:.2f} s, warm {t_warm * 1000:.0f} ms "
              "(with the Python console entry)")
        bundled = os.path.join(venv, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages",
                               "pykc", "bin", "pykc")
        r, t_exe = timed([bundled, "compile", saxpy, "--arch", "sm_80,sm_90", "-o", os.path.join(tmp, "out")], env=env)
        check(r.returncode == 0, f"site-packages/pykc/bin/pykc compile: exit {r.returncode}\n{r.stderr}")
        print(f"  the same warm, site-packages/pykc/bin/pykc itself: {t_exe * 1000:.1f} ms")
        r, _ = timed([python, "-m", "pykc", "compile", saxpy, "--arch", "sm_90", "-o", os.path.join(tmp, "out2")],
                     env=env)
        check(r.returncode == 0 and os.path.exists(os.path.join(tmp, "out2", "saxpy.sm_90.cubin")),
              f"python -m pykc compile: exit {r.returncode}\n{r.stderr}")
        r, _ = timed([python, "-m", "pykc", "version"], env=env)
        check(r.returncode == 0 and venv in r.stdout, f"python -m pykc version: {r.stdout}{r.stderr}")
        print(r.stdout.strip())
        program = os.path.join(tmp, "program.py")
        with open(program, "w") as f:
            f.write(PROGRAM)
        r, t_run = timed([python, "-m", "pykc", "run", program], env=dict(env, PYKC_ARCH="sm_90"))
        check(r.returncode == 0 and "1 entry" in r.stdout, f"python -m pykc run: exit {r.returncode}\n{r.stderr[-3000:]}")
        print(f"python -m pykc run (JIT compile at decoration): {t_run:.2f} s: {r.stdout.strip()}")

        # Without a toolkit: NVIDIA's wheels in the virtualenv.
        wheels = os.path.join(venv, "lib")
        hidden = dict(env, PYKC_CUDA_HOME="none", LD_DEBUG="files")
        cmd = [exe, "compile", saxpy, "--arch", "sm_90", "--no-cache", "-o", os.path.join(tmp, "out3")]
        if shutil.which("strace"):
            cmd = ["strace", "-f", "-e", "trace=openat", "-o", os.path.join(tmp, "strace.txt")] + cmd
        r, _ = timed(cmd, env=hidden)
        check(r.returncode == 0, f"PYKC_CUDA_HOME=none compile: exit {r.returncode}\n{r.stderr[-3000:]}")
        codegen = [l for l in r.stderr.splitlines() if "libpykc_codegen.so" in l and "file=" in l]
        check(codegen and all(venv in l for l in codegen),
              "the code generator is not the wheel's:\n" + "\n".join(codegen[:3]))
        loaded = [l for l in r.stderr.splitlines() if "libnvJitLink.so.13" in l and "file=" in l]
        check(any(wheels in l and "nvidia/cu13/lib" in l for l in loaded),
              "PYKC_CUDA_HOME=none: nvJitLink not from the virtualenv's nvidia/cu13:\n" + "\n".join(loaded[:3]))
        if shutil.which("strace"):
            opened = [l for l in open(os.path.join(tmp, "strace.txt")) if "libdevice.10.bc" in l]
            check(opened and all(wheels in l for l in opened),
                  "PYKC_CUDA_HOME=none: libdevice not from the virtualenv:\n" + "".join(opened[:3]))
        r, _ = timed([python, "-m", "pykc", "run", program], env=dict(hidden, PYKC_ARCH="sm_90"))
        check(r.returncode == 0 and "1 entry" in r.stdout, f"PYKC_CUDA_HOME=none run: exit {r.returncode}\n{r.stderr[-2000:]}")
        loaded = [l for l in r.stderr.splitlines() if "libnvJitLink.so.13" in l and "file=" in l]
        check(any(wheels in l for l in loaded), "PYKC_CUDA_HOME=none JIT: nvJitLink not from the virtualenv")
        print("PYKC_CUDA_HOME=none: nvJitLink and libdevice from NVIDIA's wheels")

        # C++ users of the wheel: its pykc/ folder is a CMake prefix (find_package(pykc)).
        if shutil.which("cmake") and os.path.exists("/usr/local/cuda/include/cuda.h"):
            example = os.path.join(tmp, "cpp_launch")
            r, _ = timed(["cmake", "-S", os.path.join(ROOT, "examples", "cpp_launch"), "-B", example,
                          f"-DCMAKE_PREFIX_PATH={os.path.dirname(os.path.dirname(bundled))}"], env=env)
            check(r.returncode == 0, f"cmake against the wheel: exit {r.returncode}\n{r.stderr[-2000:]}")
            r, t_build = timed(["cmake", "--build", example], env=env)
            check(r.returncode == 0 and os.path.exists(os.path.join(example, "saxpy_launch")),
                  f"examples/cpp_launch against the wheel: exit {r.returncode}\n{r.stdout[-2000:]}")
            print(f"examples/cpp_launch built against the wheel's CMake package: {t_build:.1f} s")
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("wheel: installed and compiled in a fresh virtualenv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
