"""The JIT as a user meets it, on a GPU host: launch cost and first-call latency of
pykc.cuda against numba-cuda (and CuPy's RawKernel for launch cost), in one process each.

    PYTHONPATH=python python3 bench/jit/jit_bench.py [--json OUT] [--launches N]

Launch cost: the median over N back-to-back launches of a trivial kernel on device
arrays (no synchronisation between them; one at the end), per launch, microseconds.
First call: from the call to its return (compile or cache load, module load, launch),
for a fresh kernel file in a warm process, on a miss (empty cache) and on a disk-cache
hit (a second process after the first filled the cache). Each peer runs in its own
subprocess so that neither one's imports cost the other.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))

KERNEL_SRC = textwrap.dedent('''
    from {module} import cuda

    @cuda.jit
    def inc(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 1
''')

# numba-cuda 0.30.4 uses numpy.row_stack, which NumPy 2.5 removed.
SHIM = "import numpy as np\nif not hasattr(np, 'row_stack'): np.row_stack = np.vstack\n"

LAUNCH = SHIM + textwrap.dedent('''
    import sys, time, json, statistics
    import numpy as np
    sys.path.insert(0, {folder!r})
    import kern
    from {module} import cuda
    x = cuda.to_device(np.zeros(1024, np.float32))
    kern.inc[4, 256](x)
    cuda.synchronize()
    n = {n}
    rounds = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            kern.inc[4, 256](x)
        t1 = time.perf_counter()
        cuda.synchronize()
        rounds.append((t1 - t0) / n * 1e6)
    assert x.copy_to_host()[0] == 1 + 7 * n
    print(json.dumps({{"launch_us": statistics.median(rounds), "rounds": rounds}}))
''')

CUPY_LAUNCH = textwrap.dedent('''
    import time, json, statistics
    import cupy as cp
    k = cp.RawKernel(r"""extern "C" __global__ void inc(float* x, long long n) {{
        long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
        if (i < n) x[i] += 1; }}""", "inc")
    x = cp.zeros(1024, cp.float32)
    k((4,), (256,), (x, cp.int64(1024)))
    cp.cuda.runtime.deviceSynchronize()
    n = {n}
    rounds = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            k((4,), (256,), (x, cp.int64(1024)))
        t1 = time.perf_counter()
        cp.cuda.runtime.deviceSynchronize()
        rounds.append((t1 - t0) / n * 1e6)
    print(json.dumps({{"launch_us": statistics.median(rounds), "rounds": rounds}}))
''')

FIRST_CALL = SHIM + textwrap.dedent('''
    import sys, time, json
    import numpy as np
    sys.path.insert(0, {folder!r})
    from {module} import cuda
    x = cuda.to_device(np.zeros(1024, np.float32))
    cuda.synchronize()
    import kern
    t0 = time.perf_counter()
    kern.inc[4, 256](x)
    t1 = time.perf_counter()
    cuda.synchronize()
    t2 = time.perf_counter()
    assert x.copy_to_host()[0] == 1
    print(json.dumps({{"first_call_ms": (t1 - t0) * 1e3, "first_call_sync_ms": (t2 - t0) * 1e3}}))
''')


# The same first call under cProfile (pykc only, with --profile): where its time goes.
FIRST_CALL_PROFILE = FIRST_CALL.replace(
    "\nkern.inc[4, 256](x)\nt1", "\nimport cProfile, pstats, io\n"
    "prof = cProfile.Profile()\nprof.enable()\nkern.inc[4, 256](x)\n"
    "prof.disable()\nt1").replace(
    "print(json.dumps({{", "out = io.StringIO()\n"
    "pstats.Stats(prof, stream=out).sort_stats('cumulative').print_stats(30)\n"
    "print(json.dumps({{'profile': out.getvalue(), ")


def run(code: str, env=None) -> dict:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=600)
    if r.returncode != 0:
        return {"error": (r.stdout + r.stderr)[-2000:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def peer_available(module: str) -> bool:
    return subprocess.run([sys.executable, "-c", f"import {module}"],
                          capture_output=True).returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--launches", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=5, help="first-call samples per peer")
    ap.add_argument("--profile", action="store_true",
                    help="also profile pykc's first call (miss and hit) with cProfile")
    ns = ap.parse_args()
    results = {}
    peers = [("pykc", "pykc")]
    if peer_available("numba.cuda"):
        peers.append(("numba-cuda", "numba"))
    for label, module in peers:
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "kern.py"), "w") as f:
                f.write(KERNEL_SRC.format(module=module))
            env = dict(os.environ)
            env["PYKC_CACHE_DIR"] = os.path.join(folder, "cache")
            env["NUMBA_CACHE_DIR"] = os.path.join(folder, "numba-cache")
            results[f"{label} launch"] = run(LAUNCH.format(folder=folder, module=module,
                                                           n=ns.launches), env)
            if label == "pykc":  # the same launches without the C extension
                results["pykc launch (ctypes, PYKC_NATIVE_LAUNCH=0)"] = run(
                    LAUNCH.format(folder=folder, module=module, n=ns.launches),
                    dict(env, PYKC_NATIVE_LAUNCH="0"))
            misses, hits = [], []
            for i in range(ns.repeats):
                # A miss: a fresh cache folder for each sample.
                env["PYKC_CACHE_DIR"] = os.path.join(folder, f"cache-miss-{i}")
                misses.append(run(FIRST_CALL.format(folder=folder, module=module), env))
            env["PYKC_CACHE_DIR"] = os.path.join(folder, "cache-hit")
            run(FIRST_CALL.format(folder=folder, module=module), env)  # fills it
            for _ in range(ns.repeats):
                hits.append(run(FIRST_CALL.format(folder=folder, module=module), env))
            results[f"{label} first call (miss)"] = misses
            results[f"{label} first call (disk hit)"] = hits
            if ns.profile and label == "pykc":
                code = FIRST_CALL_PROFILE.format(folder=folder, module=module)
                results["pykc profile (disk hit)"] = run(code, env)
                env["PYKC_CACHE_DIR"] = os.path.join(folder, "cache-miss-profile")
                results["pykc profile (miss)"] = run(code, env)
    if peer_available("cupy"):
        results["cupy RawKernel launch"] = run(CUPY_LAUNCH.format(n=ns.launches))
    print(json.dumps(results, indent=1))
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
