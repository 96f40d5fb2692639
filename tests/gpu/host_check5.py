"""Host check of tests/gpu/kernels/api_kernels5.py without a GPU: compiles the file with
`pykc --emit llvm`, runs the lowered IR on the host through host_run.py (glibc's libm
for libdevice) and compares with the references of cases/api_cases5.py: numba-cuda's
special values must match exactly (same NaNs, infinities and signed zeros), regular
values within the tolerances of the GPU cases. The GPU cases remain the proof on
libdevice; this catches logic errors in CI.

    python3 tests/gpu/host_check5.py --pykc build/bin/pykc
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "cases"))

import host_run  # noqa: E402
import api_cases5 as ref  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    failures = []

    def check(what, fn):
        try:
            print(fn())
        except AssertionError as e:
            failures.append(str(e))
            print("FAIL", e)

    with tempfile.TemporaryDirectory() as d:
        subprocess.run([args.pykc, "compile", os.path.join(HERE, "kernels", "api_kernels5.py"),
                        "--arch", "sm_90", "-o", d, "--no-cache", "--emit", "llvm"], check=True)
        lib = host_run.load(os.path.join(d, "api_kernels5.sm_90.ll"), d)
        k128, k64 = "cmath_all128__c128a1C_c128a2C", "cmath_all64__c64a1C_c64a2C"

        z = ref.special_inputs()
        n = z.size
        out = np.full((n, 17), np.nan, np.complex128)
        host_run.launch(lib, k128, n, z, out)
        want = np.array([ref.reference_row(complex(v)) for v in z])
        check("special128", lambda: ref.same_values(out, want, 1e-12, "special complex128"))
        z64 = z.astype(np.complex64)
        out64 = np.full((n, 17), np.nan, np.complex64)
        host_run.launch(lib, k64, n, z64, out64)
        want64 = np.array([ref.reference_row(complex(v), True) for v in z64.astype(np.complex128)])
        check("special64", lambda: ref.same_values(out64, want64, 2e-5, "special complex64"))

        rng = np.random.default_rng(5)
        m = 400
        zr = rng.standard_normal(m) * 2 + 1j * rng.standard_normal(m) * 2
        outr = np.full((m, 17), np.nan, np.complex128)
        host_run.launch(lib, k128, m, zr, outr)
        check("regular128", lambda: ref._close(outr, ref._numpy_rows(zr), 1e-12, 1e-13,
                                               "regular complex128"))
        zr64 = zr.astype(np.complex64)
        outr64 = np.full((m, 17), np.nan, np.complex64)
        host_run.launch(lib, k64, m, zr64, outr64)
        check("regular64", lambda: ref._close(outr64.astype(np.complex128),
                                              ref._numpy_rows(zr64.astype(np.complex128)),
                                              2e-5, 2e-5, "regular complex64"))

        a = rng.standard_normal(m) * 2 + 1j * rng.standard_normal(m) * 2
        b = (rng.standard_normal(m) + 1j * rng.standard_normal(m)) * 0.5
        a[:4] = [0.0, 2j, 0.0, 1 + 1j]
        b[:4] = [0.0, 1j, 2.0, 0.0]
        c, e = a.astype(np.complex64), b.astype(np.complex64)
        k = rng.integers(-4, 5, m).astype(np.int32)
        f = rng.standard_normal(m)
        k[:4], f[:4] = 2, 1.5
        pout = np.full((m, 7), np.nan, np.complex128)
        pout64 = np.full((m, 3), np.nan, np.complex64)
        host_run.launch(lib, "complex_pow__c128a1C_c128a1C_c64a1C_c64a1C_i32a1C_f64a1C_c128a2C_c64a2C",
                        m, a, b, c, e, k, f, pout, pout64)
        with np.errstate(all="ignore"):
            pw = np.stack([a ** b, a ** k.astype(np.complex128), a ** f.astype(np.complex128),
                           f.astype(np.complex128) ** b, a ** b, a * a, a ** 0.5], axis=1)
            pw64 = np.stack([c.astype(np.complex128) ** e, c.astype(np.complex128) ** e,
                             c.astype(np.complex128) ** c], axis=1)
        for j in range(4):
            pw[j, 0] = pw[j, 4] = ref.numba_ref.pow(complex(a[j]), complex(b[j]))
            pw64[j, 0] = pw64[j, 1] = ref.numba_ref.pow(complex(c[j]), complex(e[j]))
            pw64[j, 2] = ref.numba_ref.pow(complex(c[j]), complex(c[j]))
        check("pow128", lambda: ref._close(pout, pw, 1e-11, 1e-12, "complex pow"))
        check("pow64", lambda: ref._close(pout64.astype(np.complex128), pw64, 1e-4, 1e-4,
                                          "complex64 pow"))
        zf = (zr * 0.5).astype(np.complex64)
        fout = np.full((m, 5), np.nan, np.complex64)
        host_run.launch(lib, "cmath_fast64__c64a1C_c64a2C", m, zf, fout)
        w = zf.astype(np.complex128)
        fw = np.stack([np.exp(w), np.log(w), np.sin(w), np.sqrt(w), w ** np.roll(w, -1)], axis=1)
        check("fastmath", lambda: ref._close(fout.astype(np.complex128), fw, 2e-4, 2e-4,
                                             "fastmath complex64"))

        lz = rng.standard_normal(m) * 2 + 1j * rng.standard_normal(m)
        lb = rng.standard_normal(m) * 2 + 1j * rng.standard_normal(m)
        lout = np.full((m, 3), np.nan, np.complex128)
        host_run.launch(lib, "cmath_log_base__c128a1C_c128a1C_c128a2C", m, lz, lb, lout)
        lw = np.stack([np.log(lz) / np.log(lb), np.log(lz) / np.log(2.0 + 0j),
                       lz + complex(0.0, np.inf)], axis=1)
        check("log_base", lambda: ref._close(lout, lw, 1e-12, 1e-13, "log(z, base), infj"))

        # Slices: one thread (strided m as on the GPU).
        inputs = ref.slice_ops_inputs(rng)
        want = [x.copy() for x in inputs]
        ref.slice_ops_reference(*want)
        got = [x.copy() for x in inputs]
        got[2] = np.repeat(inputs[2], 2, axis=1)[:, ::2]
        host_run.launch(lib, "slice_ops__f32a2C_f64a1C_i32a2A_f64a2C_f32a2C_c128a2C", 1, *got)
        check("slice_ops", lambda: ref.slice_ops_check(got, want))
        a = rng.standard_normal(16).astype(np.float32)
        b = rng.standard_normal(6).astype(np.float32)
        flag = np.zeros(7, np.int32)
        wa, wflag = a.copy(), flag.copy()
        ref.slice_mismatch_reference(wa, b, wflag)
        # Thread 2 ends with PTX `exit` (a device function): not run here.
        host_run.launch(lib, "slice_mismatch__f32a1C_f32a1C_i32a1C", 7, a, b, flag,
                        only=[0, 1, 3, 4, 5, 6])
        check("slice_mismatch", lambda: ref._exact(a, wa, "a") + "; " + ref._exact(flag, wflag, "flags"))
    if failures:
        print(f"{len(failures)} host checks failed")
        return 1
    print("all host checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
