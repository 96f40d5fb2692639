"""Host check of the record, numba.cuda.random and vector-type kernels of
tests/gpu/kernels/api_kernels6.py without a GPU: compiles them (the file's other kernels
use inline PTX and libdevice-only functions, so only these are taken) with
`pykc --emit llvm`, runs the lowered IR on the host through host_run.py (glibc's libm for
libdevice's logf/sqrt/cos) and applies the GPU cases of cases/api_cases6.py to the
results: records, vectors and xoroshiro128+ draws, uniforms, jumps and seeding exact, normals
within the cases' tolerances. The GPU cases remain the proof; this catches logic errors
in CI.

    python3 tests/gpu/host_check6.py --pykc build/bin/pykc
"""

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "cases"))

import host_run  # noqa: E402
import api_cases6 as ref  # noqa: E402

KERNELS = ("records", "random_draws", "random_init", "dot3", "vectors")


def host_source() -> str:
    """The kernel file's imports and module-level dtypes, and the KERNELS."""
    src = open(os.path.join(HERE, "kernels", "api_kernels6.py"), encoding="utf-8").read()
    head = src[:src.index("\n@cuda.jit")]
    parts = []
    for name in KERNELS:
        i = src.index(f"def {name}(")
        start = src.rfind("@cuda.jit", 0, i)
        end = src.find("\n\n\n", i)
        parts.append(src[start:end if end > 0 else len(src)])
    return head + "\n\n\n" + "\n\n\n".join(parts) + "\n"


class HostContext:
    """What the cases use of harness.Context, launching on the host."""

    def __init__(self, lib, symbols, seed):
        self.rng = np.random.default_rng(seed)
        self._lib, self._symbols = lib, symbols

    def load(self):
        lib, symbols = self._lib, self._symbols

        class Launcher:
            def __init__(self, symbol):
                self.symbol = symbol

            def __getitem__(self, config):
                def run(*args):
                    conv = [a if isinstance(a, np.ndarray) else ctypes.c_uint64(int(a))
                            for a in args]
                    host_run.launch(lib, self.symbol, args[0].shape[0], *conv)
                return run

        class Module:
            pass

        mod = Module()
        for s in symbols:
            setattr(mod, s.split("__")[0], Launcher(s))
        return mod

    def randn(self, shape, dtype):
        return self.rng.standard_normal(shape).astype(dtype)

    @staticmethod
    def poison(shape, dtype):
        dt = np.dtype(dtype)
        if dt.kind in "fc":
            return np.full(shape, np.nan, dt)
        a = np.empty(shape, dt)
        a.view(np.uint8)[...] = 0xAB
        return a


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "host6.py")
        open(src, "w", encoding="utf-8").write(host_source())
        subprocess.run([args.pykc, "compile", src, "--arch", "sm_90", "-o", d, "--no-cache",
                        "--emit", "llvm"], check=True)
        ll = os.path.join(d, "host6.sm_90.ll")
        symbols = [line.split("@")[1].split("(")[0] for line in open(ll)
                   if line.startswith("define ptx_kernel")]
        lib = host_run.load(ll, d)
        for case in (ref._records, ref._random, ref._vectors):
            try:
                print(case(HostContext(lib, symbols, 7)))
            except AssertionError as e:
                failures.append(str(e))
                print("FAIL", e)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
