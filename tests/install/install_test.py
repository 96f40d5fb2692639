#!/usr/bin/env python3
"""The installed pykc (cmake/install.cmake) as a C++ project uses it.

`cmake --install` of the build into a temporary prefix; its layout; the installed
executable compiling through the installed code generator (found as ../lib/, not the
build tree's); then examples/cpp_launch configured with find_package(pykc) against
that prefix and built (pykc_add_kernels compiles examples/saxpy.py at build time and
writes saxpy.h); a second build does nothing; saxpy_launch runs: on a GPU it launches
and checks the results, without one it starts against the toolkit's stub libcuda and
says the launch was skipped.

    install_test.py --build build --source .
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def has_driver():
    r = run(["ldconfig", "-p"]) if shutil.which("ldconfig") else None
    return r is not None and "libcuda.so.1 " in r.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--cuda-root", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="pykc-install-")
    env = dict(os.environ, PYKC_CACHE_DIR=os.path.join(tmp, "cache"))
    try:
        prefix = os.path.join(tmp, "prefix")
        r = run(["cmake", "--install", args.build, "--prefix", prefix, "--component", "pykc"])
        if not check(r.returncode == 0, f"cmake --install: exit {r.returncode}\n{r.stderr}"):
            return 1
        for rel in ("bin/pykc", "lib/libpykc.so", "lib/libpykc_codegen.so", "lib/libpykc_remote_http.so",
                    "lib/libpykc_remote_redis.so", "include/pykc/pykc.h", "lib/cmake/pykc/pykcConfig.cmake",
                    "lib/cmake/pykc/pykcConfigVersion.cmake", "lib/cmake/pykc/pykcTargets.cmake",
                    "lib/cmake/pykc/PykcKernels.cmake"):
            check(os.path.exists(os.path.join(prefix, rel)), f"not installed: {rel}")

        # The installed executable compiles with the installed code generator.
        exe = os.path.join(prefix, "bin", "pykc")
        out = os.path.join(tmp, "saxpy")
        r = run([exe, "compile", os.path.join(args.source, "examples", "saxpy.py"), "--arch", "sm_90",
                 "--no-cache", "-o", out], env=dict(env, LD_DEBUG="files"))
        check(r.returncode == 0 and os.path.exists(os.path.join(out, "saxpy.sm_90.cubin")),
              f"installed pykc compile: exit {r.returncode}\n{r.stderr[-2000:]}")
        opened = [line for line in r.stderr.splitlines() if "libpykc_codegen.so" in line and "file=" in line]
        check(any(os.path.join(prefix, "bin", "..", "lib") in line for line in opened),
              "the installed pykc did not open the installed libpykc_codegen.so:\n" + "\n".join(opened[:4]))

        # examples/cpp_launch against the prefix: find_package(pykc), pykc_add_kernels.
        example = os.path.join(tmp, "cpp_launch")
        r = run(["cmake", "-S", os.path.join(args.source, "examples", "cpp_launch"), "-B", example,
                 "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}", f"-DCUDAToolkit_ROOT={args.cuda_root}"], env=env)
        if not check(r.returncode == 0, f"configure examples/cpp_launch: exit {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-3000:]}"):
            return 1
        r = run(["cmake", "--build", example], env=env)
        check(r.returncode == 0, f"build examples/cpp_launch: exit {r.returncode}\n{r.stdout[-4000:]}{r.stderr[-2000:]}")
        header = os.path.join(example, "saxpy_launch_pykc", "include", "saxpy.h")
        check(os.path.exists(header) and "saxpy_saxpy_launch" in open(header).read(), "no saxpy.h with saxpy_saxpy_launch")
        r2 = run(["cmake", "--build", example], env=env)
        check(r2.returncode == 0 and "pykc:" not in r2.stdout, f"a second build compiled again:\n{r2.stdout}")

        # Run it: with the driver (a GPU host) for real; without, on the toolkit's stub
        # libcuda, which fails cuInit, so that only the launch is skipped.
        run_env = dict(env)
        if not has_driver():
            stubs = glob.glob(os.path.join(args.cuda_root, "lib64", "stubs", "libcuda.so"))
            if stubs:
                shim = os.path.join(tmp, "stub")
                os.makedirs(shim)
                os.symlink(stubs[0], os.path.join(shim, "libcuda.so.1"))
                run_env["LD_LIBRARY_PATH"] = shim + os.pathsep + env.get("LD_LIBRARY_PATH", "")
        r = run([os.path.join(example, "saxpy_launch")], env=run_env)
        print(r.stdout.strip())
        check(r.returncode == 0 and ("PASS" in r.stdout or "launch skipped" in r.stdout),
              f"saxpy_launch: exit {r.returncode}\n{r.stdout}{r.stderr}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("install: layout, installed compiler, examples/cpp_launch through find_package(pykc)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
