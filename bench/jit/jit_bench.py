"""The JIT as a user meets it, on a GPU host: launch cost and first-call latency of
pykc.cuda against numba-cuda (and CuPy's RawKernel for launch cost), and of pykc.tile
against cuTile's own ``cuda.tile`` (where importable: ../shared/tools/cutile-for-device.sh),
in one process each.

    PYTHONPATH=python python3 bench/jit/jit_bench.py [--json OUT] [--launches N]

Launch cost: the median over N back-to-back launches of a trivial kernel on device
arrays (no synchronisation between them; one at the end), per launch, microseconds.
First call: from the call to its return (compile or cache load, module load, launch),
for a fresh kernel file in a warm process, on a miss (empty cache) and on a disk-cache
hit (a second process after the first filled the cache), each both as the first kernel of
a process and in a warm process (one that compiled and launched another kernel file
first). Each sample runs in its own subprocess so that no peer's imports cost another.
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

    @cuda.jit(cache=True)
    def inc(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 1
''')

# Another kernel file, compiled and launched first in the "warm process" samples.
WARM_SRC = KERNEL_SRC.replace("def inc", "def dec").replace("+= 1", "-= 1")

# A tile kernel for cuTile's own `import cuda.tile as ct` and for pykc.tile: first call
# (fresh process, warm or not) and launch cost through ct.launch on PyTorch tensors.
TILE_SRC = textwrap.dedent('''
    import {module} as ct


    @ct.kernel
    def vadd(a, b, c, TILE: ct.Constant[int]):
        bid = ct.bid(0)
        ta = ct.load(a, index=(bid,), shape=(TILE,))
        tb = ct.load(b, index=(bid,), shape=(TILE,))
        ct.store(c, index=(bid,), tile=ta + tb)
''')

TILE_CALL = textwrap.dedent('''
    import sys, time, json, statistics
    import torch
    sys.path.insert(0, {folder!r})
    import {module} as ct
    n = 1 << 20
    a = torch.ones(n, device="cuda"); b = torch.ones(n, device="cuda")
    c = torch.zeros(n, device="cuda")
    s = torch.cuda.current_stream()
    torch.cuda.synchronize()
    if {warm}:
        import twarm
        ct.launch(s, (n // 1024,), twarm.vadd, (a, b, c, 1024))
        torch.cuda.synchronize()
    import tkern
    t0 = time.perf_counter()
    ct.launch(s, (n // 1024,), tkern.vadd, (a, b, c, 1024))
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    assert c.sum().item() == 2 * n
    rounds = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range({launches}):
            ct.launch(s, (n // 1024,), tkern.vadd, (a, b, c, 1024))
        rounds.append((time.perf_counter() - t) / {launches} * 1e6)
        torch.cuda.synchronize()
    print(json.dumps({{"first_call_ms": (t1 - t0) * 1e3, "launch_us": statistics.median(rounds)}}))
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
    if {warm}:  # a warm process: it has compiled and launched another kernel file
        import warm
        warm.dec[4, 256](x)
        cuda.synchronize()
        x.copy_to_device(np.zeros(1024, np.float32))
    import kern
    t0 = time.perf_counter()
    kern.inc[4, 256](x)
    t1 = time.perf_counter()
    cuda.synchronize()
    t2 = time.perf_counter()
    assert x.copy_to_host()[0] == 1
    print(json.dumps({{"first_call_ms": (t1 - t0) * 1e3, "first_call_sync_ms": (t2 - t0) * 1e3}}))
''')


def profiled(code: str, call: str) -> str:
    """``code`` with the line ``call`` (its first call) under cProfile, printing the 30
    functions of most cumulative time in microseconds as ``profile`` in its JSON."""
    assert "\n" + call + "\nt1" in code, call
    return code.replace(
        "\n" + call + "\nt1", "\nimport cProfile, pstats\nprof = cProfile.Profile()\n"
        "prof.enable()\n" + call + "\nprof.disable()\nt1").replace(
        "print(json.dumps({{", "st = pstats.Stats(prof).stats\n"
        "top = sorted(st.items(), key=lambda kv: -kv[1][3])[:30]\n"
        "rows = ['%9.1f us cum %9.1f us own %5d calls  %s:%d(%s)' % (v[3] * 1e6, v[2] * 1e6, "
        "v[1], k[0][-40:], k[1], k[2]) for k, v in top]\n"
        "print(json.dumps({{'profile': rows, ")


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
    ap.add_argument("--no-cutile", action="store_true", help="leave cuTile out")
    ap.add_argument("--only-tile", action="store_true",
                    help="only the tile kernels (pykc.tile and cuTile), for a run in cuTile's "
                         "environment (its libNVVM is newer than numba-cuda's nvJitLink)")
    ns = ap.parse_args()
    results = {}
    peers = [("pykc", "pykc")]
    if peer_available("numba.cuda"):
        peers.append(("numba-cuda", "numba"))
    for label, module in ([] if ns.only_tile else peers):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "kern.py"), "w") as f:
                f.write(KERNEL_SRC.format(module=module))
            with open(os.path.join(folder, "warm.py"), "w") as f:
                f.write(WARM_SRC.format(module=module))
            env = dict(os.environ)
            env["PYKC_CACHE_DIR"] = os.path.join(folder, "cache")
            env["NUMBA_CACHE_DIR"] = os.path.join(folder, "numba-cache")
            results[f"{label} launch"] = run(LAUNCH.format(folder=folder, module=module,
                                                           n=ns.launches), env)
            if label == "pykc":  # the same launches without the C extension
                results["pykc launch (ctypes, PYKC_NATIVE_LAUNCH=0)"] = run(
                    LAUNCH.format(folder=folder, module=module, n=ns.launches),
                    dict(env, PYKC_NATIVE_LAUNCH="0"))
            for warm in (False, True):
                what = "in a warm process" if warm else "first of a process"
                misses, hits = [], []
                for i in range(ns.repeats):
                    # A miss: a fresh cache folder for each sample.
                    env["PYKC_CACHE_DIR"] = os.path.join(folder, f"cache-miss-{warm}-{i}")
                    env["NUMBA_CACHE_DIR"] = os.path.join(folder, f"numba-miss-{warm}-{i}")
                    misses.append(run(FIRST_CALL.format(folder=folder, module=module,
                                                        warm=warm), env))
                env["PYKC_CACHE_DIR"] = os.path.join(folder, f"cache-hit-{warm}")
                env["NUMBA_CACHE_DIR"] = os.path.join(folder, f"numba-hit-{warm}")
                run(FIRST_CALL.format(folder=folder, module=module, warm=warm), env)  # fills
                for _ in range(ns.repeats):
                    hits.append(run(FIRST_CALL.format(folder=folder, module=module,
                                                      warm=warm), env))
                results[f"{label} first call (miss, {what})"] = misses
                results[f"{label} first call (disk hit, {what})"] = hits
            if ns.profile and label == "pykc":
                code = profiled(FIRST_CALL, "kern.inc[4, 256](x)").format(
                    folder=folder, module=module, warm=True)
                results["pykc profile (disk hit, in a warm process)"] = run(code, env)
                env["PYKC_CACHE_DIR"] = os.path.join(folder, "cache-miss-profile")
                results["pykc profile (miss, in a warm process)"] = run(code, env)
    tile_peers = [("pykc.tile", "pykc.tile")]
    if peer_available("cuda.tile") and not ns.no_cutile:
        tile_peers.append(("cuTile", "cuda.tile"))
    for label, module in tile_peers:
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "tkern.py"), "w") as f:
                f.write(TILE_SRC.format(module=module))
            with open(os.path.join(folder, "twarm.py"), "w") as f:  # another kernel
                f.write(TILE_SRC.format(module=module).replace("ta + tb", "ta - tb"))
            env = dict(os.environ)
            for warm in (False, True):
                what = "in a warm process" if warm else "first of a process"
                samples = []
                for i in range(ns.repeats):
                    env["PYKC_CACHE_DIR"] = os.path.join(folder, f"cache-{warm}-{i}")
                    samples.append(run(TILE_CALL.format(folder=folder, module=module,
                                                        warm=warm, launches=ns.launches // 4),
                                       env))
                results[f"{label} ct.launch first call (miss, {what})"] = samples
            if ns.profile and label == "pykc.tile":
                code = profiled(TILE_CALL, "ct.launch(s, (n // 1024,), tkern.vadd, (a, b, c, 1024))")
                env["PYKC_CACHE_DIR"] = os.path.join(folder, "cache-profile")
                results["pykc.tile profile (miss, first of a process)"] = run(
                    code.format(folder=folder, module=module, warm=False, launches=10), env)
    if peer_available("cupy") and not ns.only_tile:
        results["cupy RawKernel launch"] = run(CUPY_LAUNCH.format(n=ns.launches))
    print(json.dumps(results, indent=1))
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
