"""Where a tile kernel's JIT miss spends its time, in one warm process: libpykc's compile
of cuTile's vector-add shape for several TILE values (the signature ct.launch would send,
with cuTile's specialisation facts), each a miss, then the same PTX through ptxas alone
under each register budget the link policy may ask for (.minnctapersm for 32 and 40
registers a thread, and none), with ptxas's registers and spills. Shows how many links a
miss needs and what each costs.

    PYTHONPATH=python python3 bench/jit/tile_miss.py [--arch sm_90] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SRC = '''import cuda.tile as ct


@ct.kernel
def vadd(a, b, c, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    ta = ct.load(a, index=(bid,), shape=(TILE,))
    tb = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=ta + tb{extra})
'''

ARRAY = "float32[::1].assume(alignment=16, shape_divisible_by=(16,))"


def ptxas_run(ptxas: str, arch: str, ptx: str, folder: str) -> dict:
    path = os.path.join(folder, "probe.ptx")
    with open(path, "w") as f:
        f.write(ptx)
    times = []
    info = ""
    for _ in range(3):
        t0 = time.perf_counter()
        r = subprocess.run([ptxas, f"-arch={arch}", "-O3", "-v", path, "-o",
                            os.path.join(folder, "probe.cubin")], capture_output=True, text=True)
        times.append((time.perf_counter() - t0) * 1e3)
        info = r.stderr
    regs = re.search(r"Used (\d+) registers", info)
    spill = re.search(r"(\d+) bytes spill stores", info)
    return {"ms": round(statistics.median(times), 2), "registers": int(regs.group(1)) if regs else None,
            "spill_stores": int(spill.group(1)) if spill else None}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--json")
    ns = ap.parse_args()
    folder = tempfile.mkdtemp()
    from pykc._compiler import Compiler
    c = Compiler(cache_dir=os.path.join(folder, "cache"))
    path = os.path.join(folder, "tvadd.py")
    sig = f"vadd({ARRAY}, {ARRAY}, {ARRAY})"
    # One miss first: the process's one-time set-up (nvJitLink load, NVPTX target).
    c.compile(path, source=SRC.format(extra=" + 0"), kernel="vadd", sigs=[sig], archs=[ns.arch],
              consts=["TILE=64"])
    out: dict = {"arch": ns.arch, "tiles": {}}
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    for tile in (256, 512, 1024, 2048, 4096):
        times = []
        for i in range(5):
            t0 = time.perf_counter()
            r = c.compile(path, source=SRC.format(extra=f" + {i + 1}"), kernel="vadd", sigs=[sig],
                          archs=[ns.arch], consts=[f"TILE={tile}"])
            times.append((time.perf_counter() - t0) * 1e3)
        entry = {"miss_ms_median": round(statistics.median(times), 2),
                 "miss_ms_min": round(min(times), 2)}
        ptx = r.ptx[ns.arch]  # as last linked: with the budget the policy ended at
        t0 = time.perf_counter()
        c.compile(path, source=SRC.format(extra=" + 99"), kernel="vadd", sigs=[sig], archs=[ns.arch],
                  consts=[f"TILE={tile}"], check_only=True)
        entry["check_only_ms"] = round((time.perf_counter() - t0) * 1e3, 2)
        threads = int(re.search(r"\.maxntid (\d+)", ptx).group(1))
        m = re.search(r"\.minnctapersm (\d+)", ptx)
        entry["threads"] = threads
        # Registers a thread under the final .minnctapersm (None: no budget).
        entry["final budget"] = 65536 // (threads * int(m.group(1))) if m else None
        if os.path.exists(ptxas):
            base = re.sub(r"\.minnctapersm \d+\n", "", ptx)
            for label, regs in (("32", 32), ("40", 40), ("none", 0)):
                variant = base
                if regs:
                    ctas = max(1, min(32, 65536 // (threads * regs)))
                    variant = base.replace(f".maxntid {threads}, 1, 1\n",
                                           f".maxntid {threads}, 1, 1\n.minnctapersm {ctas}\n")
                entry[f"ptxas budget {label}"] = ptxas_run(ptxas, ns.arch, variant, folder)
        out["tiles"][str(tile)] = entry
    shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(out, indent=1))
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
