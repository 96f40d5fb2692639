#!/usr/bin/env python3
"""GPU benchmark: pykc's cubins against nvcc's build of the CUDA C++ twins and against
numba-cuda's JIT of the same Python, for eight kernels (docs/BENCHMARKS.md).

Build here first (no GPU needed): ``bench/gpu/prepare.sh`` writes .gpu/bench/ (pykc
output folders, nvcc cubins, the spin kernel). On the GPU machine:

    python3 bench/gpu/run_gpu_bench.py --art .gpu/bench --out $OUT

Method (METHOD.md): inputs drawn fresh on the device (cupy.random), several input sets per
kernel (a few GB together, so L2 doesn't flatter), outputs poisoned, every variant checked
against NumPy on set 0 before any timing. Timing: CUDA events around one launch; before
each timed launch a one-thread spin kernel keeps the GPU busy for --spin-us, so the host
has queued start event, launch and stop event before the GPU reaches them and the events
time the kernel, not the Python launch path. Warm-up launches first; medians over --reps;
the variants take turns within each repetition (order rotated), each repetition on the
next input set. Memory-bound kernels are also reported as a fraction of the
device-to-device copy bandwidth (cudaMemcpy, bytes read + written) measured in the run.

``--dry-run`` runs the CPU parts here: NumPy references on small inputs, and pykc's
argument checks (pykc.plan_launch) of every launch against the manifests.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import subprocess
import sys
import time

import numpy as np

if not hasattr(np, "row_stack"):      # numba-cuda 0.30.4 uses it; NumPy 2.5 removed it
    np.row_stack = np.vstack
# numba would otherwise synchronise CuPy's (default) stream on every launch, which would
# wait out the spin kernel and put the host launch path back inside the timed region.
os.environ.setdefault("NUMBA_CUDA_ARRAY_INTERFACE_SYNC", "0")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KDIR = os.path.join(ROOT, "bench", "compile", "kernels")
sys.path.insert(0, os.path.join(ROOT, "python"))


# ----------------------------------------------------------------------------- kernels

def rel_l2(got, ref):
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if not np.all(np.isfinite(got)):
        return float("inf")
    return float(np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-300))


class Spec:
    """One benchmark kernel: its file, sizes, inputs, launch shapes, arguments for the
    Python kernel (pykc, numba) and the CUDA C++ twin (nvcc), reference and byte count."""
    name = file = kernel = ""
    memory_bound = True
    nsets = 4
    tol = 1e-5

    def __init__(self, small: bool):
        self.small = small

    def reset(self, xp, d):               # before every launch (atomics need zeroed outputs)
        pass

    def poison(self, xp, d):              # before the correctness check: NaN in every output
        for k in self.outputs():
            d[k].fill(np.nan)

    def compare(self, got: dict, ref: dict) -> float:
        """Relative L2 error (float outputs), or the largest absolute difference where the
        result must be exact (tol 0); inf if any element is not finite (poison left)."""
        errs = []
        for k, r in ref.items():
            g = got[k]
            if self.tol == 0.0:
                g64 = np.asarray(g, dtype=np.float64)
                errs.append(float("inf") if not np.all(np.isfinite(g64))
                            else float(np.abs(g64 - np.asarray(r, dtype=np.float64)).max()))
            else:
                errs.append(rel_l2(g, r))
        return max(errs)


class Saxpy(Spec):
    name, file, kernel = "saxpy", "k01_saxpy", "saxpy"

    def n(self):
        return 1 << (12 if self.small else 26)      # 768 MiB a set

    def make(self, xp, rs):
        n = self.n()
        return {"a": np.float32(2.5), "x": rs.standard_normal(n, dtype=np.float32),
                "y": rs.standard_normal(n, dtype=np.float32), "out": xp.full(n, np.nan, np.float32)}

    def outputs(self):
        return ["out"]

    def cfg(self, d, sms):
        return (sms * 32,), (256,)

    def py_args(self, d):
        return (d["a"], d["x"], d["y"], d["out"])

    def cu_args(self, d):
        return (d["a"], d["x"], d["y"], d["out"], np.int64(d["x"].size))

    def reference(self, h):
        return {"out": np.float64(h["a"]) * h["x"] + h["y"]}

    def bytes(self, d):
        return 3 * 4 * d["x"].size


class BlockSum(Spec):
    name, file, kernel = "block_sum", "k02_block_sum", "block_sum"

    def n(self):
        return 1 << (14 if self.small else 27)      # 512 MiB a set

    def make(self, xp, rs):
        n = self.n()
        return {"x": rs.standard_normal(n, dtype=np.float32),
                "partial": xp.full(n // 256, np.nan, np.float32)}

    def outputs(self):
        return ["partial"]

    def cfg(self, d, sms):
        return (d["x"].size // 256,), (256,)

    def py_args(self, d):
        return (d["x"], d["partial"])

    def cu_args(self, d):
        return (d["x"], d["partial"], np.int64(d["x"].size))

    def reference(self, h):
        return {"partial": h["x"].astype(np.float64).reshape(-1, 256).sum(axis=1)}

    def bytes(self, d):
        return 4 * d["x"].size + 4 * d["partial"].size


class Matmul(Spec):
    name, file, kernel = "matmul16", "k03_matmul", "matmul_tiled"
    memory_bound = False
    nsets = 3
    tol = 1e-4                            # K = 4096 float32 sums against float64
    # pykc's own PTX with its shared arrays declared .align 16 instead of 4, linked by the
    # same nvJitLink (prepare.sh): what the lowering change in docs/BENCHMARKS.md would give.
    # The same with nsw on every int64 add/sub/mul of pykc's unoptimised IR (as numba emits
    # them), through opt-19 -O3 and llc-19 here: the negative-index wraps in the loop fold.
    experiments = {"pykc_align16": ("cubin", "exp/k03_matmul_align16.cubin"),
                   "pykc_align16_nsw": ("cubin", "exp/k03_matmul_align16_nsw.cubin")}

    def dims(self):
        return (64, 48, 80) if self.small else (4096, 4096, 4096)   # M, K, N: 192 MiB a set

    def make(self, xp, rs):
        m, k, n = self.dims()
        return {"a": rs.standard_normal((m, k), dtype=np.float32),
                "b": rs.standard_normal((k, n), dtype=np.float32),
                "c": xp.full((m, n), np.nan, np.float32)}

    def outputs(self):
        return ["c"]

    def cfg(self, d, sms):
        m, n = d["c"].shape
        return ((n + 15) // 16, (m + 15) // 16), (16, 16)

    def py_args(self, d):
        return (d["a"], d["b"], d["c"])

    def cu_args(self, d):
        m, k = d["a"].shape
        return (d["a"], d["b"], d["c"], np.int64(m), np.int64(k), np.int64(d["b"].shape[1]))

    def reference(self, h):
        return {"c": h["a"].astype(np.float64) @ h["b"].astype(np.float64)}

    def bytes(self, d):
        return None

    def flops(self, d):
        m, k = d["a"].shape
        return 2.0 * m * k * d["b"].shape[1]


class Softmax(Spec):
    name, file, kernel = "softmax", "k04_softmax", "softmax_rows"

    def dims(self):
        return (64, 300) if self.small else (32768, 4096)           # 512 MiB in, 512 out

    def make(self, xp, rs):
        r, c = self.dims()
        return {"x": rs.standard_normal((r, c), dtype=np.float32) * np.float32(3.0),
                "out": xp.full((r, c), np.nan, np.float32)}

    def outputs(self):
        return ["out"]

    def cfg(self, d, sms):
        return (d["x"].shape[0],), (256,)

    def py_args(self, d):
        return (d["x"], d["out"])

    def cu_args(self, d):
        return (d["x"], d["out"], np.int64(d["x"].shape[1]))

    def reference(self, h):
        x = h["x"].astype(np.float64)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        e /= e.sum(axis=1, keepdims=True)
        return {"out": e}

    def bytes(self, d):
        return 2 * 4 * d["x"].size


Softmax.experiments = {"pykc_counted": ("pykc", "exp/softmax_counted")}


class BlackScholes(Spec):
    name, file, kernel = "black_scholes", "k05_black_scholes", "black_scholes"
    nsets = 3
    tol = 1e-10

    def n(self):
        return 1 << (12 if self.small else 25)      # 5 x 256 MiB a set

    def make(self, xp, rs):
        n = self.n()
        return {"s": rs.uniform(5.0, 30.0, n), "x": rs.uniform(1.0, 100.0, n),
                "t": rs.uniform(0.25, 10.0, n), "r": np.float64(0.02), "v": np.float64(0.30),
                "call": xp.full(n, np.nan), "put": xp.full(n, np.nan)}

    def outputs(self):
        return ["call", "put"]

    def cfg(self, d, sms):
        return (sms * 32,), (256,)

    def py_args(self, d):
        return (d["call"], d["put"], d["s"], d["x"], d["t"], d["r"], d["v"])

    def cu_args(self, d):
        return (d["call"], d["put"], d["s"], d["x"], d["t"], d["r"], d["v"], np.int64(d["s"].size))

    @staticmethod
    def formula(s, x, t, r, v):
        a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
        rs2p = 0.39894228040143267793994605993438

        def cnd(d):
            k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
            ret = rs2p * np.exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
            return np.where(d > 0, 1.0 - ret, ret)

        sqrt_t = np.sqrt(t)
        d1 = (np.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        c1, c2 = cnd(d1), cnd(d2)
        e = np.exp(-r * t)
        return s * c1 - x * e * c2, x * e * (1.0 - c2) - s * (1.0 - c1)

    def reference(self, h):
        call, put = self.formula(h["s"], h["x"], h["t"], h["r"], h["v"])
        return {"call": call, "put": put}

    def bytes(self, d):
        return 5 * 8 * d["s"].size


class Stencil(Spec):
    name, file, kernel = "stencil5", "k06_stencil", "stencil5"

    def dims(self):
        return (50, 70) if self.small else (8192, 8192)             # 256 MiB in, 256 out

    def make(self, xp, rs):
        r, c = self.dims()
        return {"u": rs.standard_normal((r, c), dtype=np.float32), "c": np.float32(0.2),
                "out": xp.full((r, c), np.nan, np.float32)}

    def outputs(self):
        return ["out"]

    def cfg(self, d, sms):
        r, c = d["u"].shape
        return ((c + 31) // 32, (r + 7) // 8), (32, 8)

    def py_args(self, d):
        return (d["u"], d["out"], d["c"])

    def cu_args(self, d):
        r, c = d["u"].shape
        return (d["u"], d["out"], d["c"], np.int64(r), np.int64(c))

    def reference(self, h):
        u = h["u"].astype(np.float64)
        ref = u.copy()
        c = np.float64(h["c"])
        ref[1:-1, 1:-1] = u[1:-1, 1:-1] + c * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                                                + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1])
        return {"out": ref}

    def bytes(self, d):
        return 2 * 4 * d["u"].size


class Histogram(Spec):
    name, file, kernel = "histogram", "k07_histogram", "histogram"
    tol = 0.0

    def n(self):
        return 1 << (14 if self.small else 27)      # 512 MiB a set

    def make(self, xp, rs):
        n = self.n()
        return {"x": rs.integers(0, 256, n, dtype=np.int32) if hasattr(rs, "integers")
                else rs.randint(0, 256, n, dtype=np.int32),
                "bins": xp.full(256, -7, np.int32)}

    def outputs(self):
        return ["bins"]

    def poison(self, xp, d):
        d["bins"].fill(0)

    def reset(self, xp, d):
        d["bins"].fill(0)

    def cfg(self, d, sms):
        return (sms * 8,), (256,)

    def py_args(self, d):
        return (d["x"], d["bins"])

    def cu_args(self, d):
        return (d["x"], d["bins"], np.int64(d["x"].size))

    def reference(self, h):
        return {"bins": np.bincount(h["x"], minlength=256)}

    def bytes(self, d):
        return 4 * d["x"].size


class Transpose(Spec):
    name, file, kernel = "transpose", "k08_transpose", "transpose"
    tol = 0.0

    def dims(self):
        return (70, 100) if self.small else (8192, 8192)            # 256 MiB in, 256 out

    def make(self, xp, rs):
        r, c = self.dims()
        return {"a": rs.standard_normal((r, c), dtype=np.float32),
                "out": xp.full((c, r), np.nan, np.float32)}

    def outputs(self):
        return ["out"]

    def cfg(self, d, sms):
        r, c = d["a"].shape
        return ((c + 31) // 32, (r + 31) // 32), (32, 8)

    def py_args(self, d):
        return (d["a"], d["out"])

    def cu_args(self, d):
        r, c = d["a"].shape
        return (d["a"], d["out"], np.int64(r), np.int64(c))

    def reference(self, h):
        return {"out": h["a"].T}

    def bytes(self, d):
        return 2 * 4 * d["a"].size


Histogram.experiments = {"pykc_counted": ("pykc", "exp/histogram_counted")}

SPECS = [Saxpy, BlockSum, Matmul, Softmax, BlackScholes, Stencil, Histogram, Transpose]


# ----------------------------------------------------------------------------- helpers

def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception as e:  # noqa: BLE001
        return f"? ({e})"


def load_python_module(name):
    spec = importlib.util.spec_from_file_location("bench_" + name, os.path.join(KDIR, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def host(xp, v):
    return xp.asnumpy(v) if hasattr(v, "__cuda_array_interface__") else v


def experiments_of(s, art):
    """The spec's own experiments, plus what the art folder holds for its file:
    exp_pykc/<file>/<variant>/ (pykc output folders, e.g. another pykc build) as
    `pykc_<variant>`, and exp_cubin/<file>/<variant>.cubin (pykc's symbols and ABI)
    as `cubin_<variant>`."""
    found = dict(getattr(s, "experiments", {}))
    pdir = os.path.join(art, "exp_pykc", s.file)
    if os.path.isdir(pdir):
        for v in sorted(os.listdir(pdir)):
            if os.path.exists(os.path.join(pdir, v, "manifest.json")):
                found["pykc_" + v] = ("pykc", os.path.join("exp_pykc", s.file, v))
    cdir = os.path.join(art, "exp_cubin", s.file)
    if os.path.isdir(cdir):
        for v in sorted(os.listdir(cdir)):
            if v.endswith(".cubin"):
                found["cubin_" + v[:-len(".cubin")]] = ("cubin", os.path.join("exp_cubin", s.file, v))
    return found


# ----------------------------------------------------------------------------- dry run

def dry_run(art):
    """CPU only: references on small inputs, and pykc's argument checks of every launch."""
    import pykc
    rs = np.random.default_rng(1)
    for cls in SPECS:
        s = cls(small=True)
        d = s.make(np, rs)
        man = pykc.read_manifest(os.path.join(art, "pykc", s.file))
        entry = [e for e in man.kernels if e.name == s.kernel][0]
        plan = pykc.plan_launch(entry, s.py_args(d), upload=lambda a: _FakeDev(a))
        cubin = os.path.join(art, "nvcc", s.file + ".cubin")
        assert os.path.exists(cubin), cubin
        # the reference against itself (sanity of the checker), and the byte counts
        ref = s.reference(d)
        err_zero = s.compare({o: np.zeros_like(d[o]) for o in s.outputs()}, ref)
        err_self = s.compare(ref, ref)
        assert err_self == 0.0 and err_zero > 0.0, (s.name, err_self, err_zero)
        grid, block = s.cfg(d, 132)
        print(f"{s.name:14s} pykc params {len(plan.params):2d}  grid {grid} block {block}  "
              f"error(zeros)={err_zero:.3g}  bytes={s.bytes(d)}")
    print("dry run ok")


class _FakeDev:
    """Stands in for a device copy in plan_launch during the dry run."""

    def __init__(self, a):
        self.a = a

    @property
    def __cuda_array_interface__(self):
        return {"version": 3, "shape": self.a.shape, "typestr": self.a.dtype.str,
                "data": (self.a.ctypes.data, False), "strides": None, "stream": None}


# ----------------------------------------------------------------------------- the run

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--art", default=os.path.join(ROOT, ".gpu", "bench"))
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--spin-us", type=float, default=1500.0)
    ap.add_argument("--backend", default="cupy", help="pykc loader backend (cupy or cuda.core)")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-numba", action="store_true")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    a = ap.parse_args()
    art = os.path.abspath(a.art)
    if a.dry_run:
        return dry_run(art)

    import cupy as cp
    import pykc

    dev = cp.cuda.Device(0)
    dev.use()
    sms = dev.attributes["MultiProcessorCount"]
    props = cp.cuda.runtime.getDeviceProperties(0)
    spin_fn = cp.RawModule(path=os.path.join(art, "nvcc", "spin.cubin")).get_function("spin")
    spin_ns = np.uint64(int(a.spin_us * 1000))
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    late = {"count": 0}

    def timed(launch):
        """Spin, then events around one launch; returns ms."""
        t = time.perf_counter()
        spin_fn((1,), (1,), (spin_ns,))
        e0.record()
        launch()
        e1.record()
        if time.perf_counter() - t > 0.8 * a.spin_us * 1e-6:
            late["count"] += 1           # the host was slower than the spin: time is suspect
        e1.synchronize()
        return cp.cuda.get_elapsed_time(e0, e1)

    env = {
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "device": props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"]),
        "sms": sms, "l2_bytes": props.get("l2CacheSize"),
        "nvidia_smi": sh("nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,"
                         "clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader"),
        "python": sys.version.split()[0], "numpy": np.__version__, "cupy": cp.__version__,
        "cuda_runtime": cp.cuda.runtime.runtimeGetVersion(), "driver": cp.cuda.runtime.driverGetVersion(),
        "pykc_backend": a.backend, "host": platform.node(), "reps": a.reps, "warmup": a.warmup,
        "spin_us": a.spin_us, "seed": a.seed,
        "build_info": open(os.path.join(art, "BUILD_INFO")).read() if os.path.exists(os.path.join(art, "BUILD_INFO")) else None,
    }
    try:
        import numba
        import numba_cuda
        env["numba"] = f"numba {numba.__version__}, numba-cuda {numba_cuda.__version__}"
    except Exception as e:  # noqa: BLE001
        env["numba"] = f"unavailable: {e}"
        a.no_numba = True
    print(json.dumps(env, indent=1), flush=True)

    # --- device-to-device copy bandwidth (bytes read + written)
    nbytes = 1 << 30
    bufs = [cp.empty(nbytes, dtype=np.uint8) for _ in range(4)]
    for b in bufs:
        b.fill(1)
    copy_ms = []
    for r in range(5 + a.reps):
        src, dst = bufs[(2 * r) % 4], bufs[(2 * r + 1) % 4]
        ms = timed(lambda: cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes,
                                                       cp.cuda.runtime.memcpyDeviceToDevice, 0))
        if r >= 5:
            copy_ms.append(ms)
    del bufs
    copy_bw = 2 * nbytes / (np.median(copy_ms) * 1e-3)
    print(f"device-to-device copy: {np.median(copy_ms):.3f} ms for 2 x 1 GiB -> {copy_bw / 1e12:.2f} TB/s",
          flush=True)

    results = []
    rng = cp.random.default_rng(a.seed)
    for cls in SPECS:
        s = cls(small=False)
        if a.only and a.only not in s.name:
            continue
        row = {"kernel": s.name, "file": s.file}
        try:
            mod_pykc = pykc.load(os.path.join(art, "pykc", s.file), backend=a.backend)
            k_pykc = mod_pykc[s.kernel]
            k_nvcc = cp.RawModule(path=os.path.join(art, "nvcc", s.file + ".cubin")).get_function(s.kernel)
            variants = {
                "pykc": lambda d, g, b: k_pykc[g, b](*s.py_args(d)),
                "nvcc": lambda d, g, b: k_nvcc(g, b, s.cu_args(d)),
            }
            row["regs"] = {"pykc": k_pykc.function(k_pykc.entries[0]).num_regs
                           if hasattr(k_pykc.function(k_pykc.entries[0]), "num_regs") else None,
                           "nvcc": k_nvcc.num_regs}
            for xname, (kind, rel) in experiments_of(s, art).items():
                path = os.path.join(art, rel)
                if not os.path.exists(path):
                    continue
                if kind == "pykc":      # another pykc output folder, through the loader
                    xk = pykc.load(path, backend=a.backend)[s.kernel]
                    variants[xname] = (lambda k: lambda d, g, b: k[g, b](*s.py_args(d)))(xk)
                    continue
                entry = k_pykc.entries[0]   # a cubin with pykc's symbols and ABI
                xfn = cp.RawModule(path=path).get_function(entry.symbol)
                variants[xname] = (lambda fn, e: lambda d, g, b: fn(
                    g, b, tuple(pykc.plan_launch(e, s.py_args(d)).packed())))(xfn, entry)
            if not a.no_numba:
                t0 = time.perf_counter()
                k_numba = getattr(load_python_module(s.file), s.kernel)
                row["numba_import_jit_s"] = time.perf_counter() - t0
                variants["numba"] = lambda d, g, b: k_numba[g, b](*s.py_args(d))
                try:
                    row["regs"]["numba"] = list(k_numba.get_regs_per_thread().values())[0]
                except Exception:  # noqa: BLE001
                    pass

            sets = [s.make(cp, rng) for _ in range(s.nsets)]
            set_bytes = sum(v.nbytes for v in sets[0].values() if hasattr(v, "nbytes"))
            row["input_sets"] = s.nsets
            row["bytes_per_set"] = set_bytes
            grid, block = s.cfg(sets[0], sms)
            row["grid"], row["block"] = grid, block

            # --- correctness, every variant, on set 0 (and set 1), before any timing
            row["error"] = {}
            for si in (0, 1):
                d = sets[si]
                ref = s.reference({k: host(cp, v) for k, v in d.items() if k not in s.outputs()})
                for vname, launch in variants.items():
                    s.poison(cp, d)
                    launch(d, grid, block)
                    cp.cuda.runtime.deviceSynchronize()
                    err = s.compare({o: cp.asnumpy(d[o]) for o in s.outputs()}, ref)
                    row["error"][f"{vname}_set{si}"] = err
                    if not err <= s.tol:   # recorded, shown as WRONG, left out of the means
                        row.setdefault("wrong", []).append(vname)
                        print(f"{s.name}: {vname} WRONG on set {si}: error {err:.3g} > {s.tol}", flush=True)
            print(f"{s.name}: checked ({', '.join(f'{k} {v:.2g}' for k, v in row['error'].items())})",
                  flush=True)

            # --- timing: variants take turns, order rotated, input set rotated
            names = list(variants)
            times = {v: [] for v in names}
            for r in range(a.warmup + a.reps):
                d = sets[r % s.nsets]
                order = names[r % len(names):] + names[:r % len(names)]
                for vname in order:
                    s.reset(cp, d)
                    ms = timed(lambda: variants[vname](d, grid, block))
                    if r >= a.warmup:
                        times[vname].append(ms)
            row["times_ms"] = times
            row["median_ms"] = {v: float(np.median(t)) for v, t in times.items()}
            row["spread_ms"] = {v: [float(np.percentile(t, 10)), float(np.percentile(t, 90))] for v, t in times.items()}
            if s.bytes(sets[0]):
                row["bytes"] = s.bytes(sets[0])
                row["bw_TBps"] = {v: row["bytes"] / (m * 1e-3) / 1e12 for v, m in row["median_ms"].items()}
                row["frac_copy_bw"] = {v: row["bytes"] / (m * 1e-3) / copy_bw for v, m in row["median_ms"].items()}
            if hasattr(s, "flops"):
                row["TFLOPs"] = {v: s.flops(sets[0]) / (m * 1e-3) / 1e12 for v, m in row["median_ms"].items()}
            m = row["median_ms"]
            for xname in experiments_of(s, art):
                if xname in m:
                    print(f"{s.name}: experiment {xname}: {m[xname]:.4f} ms, "
                          f"{m['pykc'] / m[xname]:.3f}x pykc, {m['nvcc'] / m[xname]:.3f}x nvcc", flush=True)
            row["speedup_vs_nvcc"] = m["nvcc"] / m["pykc"]
            if "numba" in m:
                row["speedup_vs_numba"] = m["numba"] / m["pykc"]
            print(f"{s.name}: " + ", ".join(f"{v} {t:.4f} ms" for v, t in m.items()), flush=True)
            del sets
            cp.get_default_memory_pool().free_all_blocks()
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            row["failed"] = f"{type(e).__name__}: {e}"
            cp.get_default_memory_pool().free_all_blocks()
        results.append(row)

    ok = [r for r in results if "failed" not in r and not r.get("wrong")]
    summary = {
        "copy_bw_TBps": copy_bw / 1e12,
        "copy_ms_median": float(np.median(copy_ms)),
        "geomean_speedup_vs_nvcc": geomean([r["speedup_vs_nvcc"] for r in ok]),
        "geomean_speedup_vs_numba": geomean([r.get("speedup_vs_numba") for r in ok]),
        "late_host_launches": late["count"],
        "failed": [r["kernel"] for r in results if "failed" in r],
        "wrong": {r["kernel"]: r["wrong"] for r in results if r.get("wrong")},
    }
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "gpu_bench.json"), "w") as fh:
        json.dump({"env": env, "summary": summary, "kernels": results}, fh, indent=1)

    print(f"\nGPU time, medians of {a.reps} reps after {a.warmup} warm-ups, {env['device']}; "
          f"copy BW {copy_bw / 1e12:.2f} TB/s; speed-up = peer time / pykc time (above 1: pykc faster)\n")
    print("| kernel | pykc ms | nvcc ms | numba ms | vs nvcc | vs numba | pykc %copy-BW | nvcc %copy-BW | numba %copy-BW | regs pykc/nvcc/numba |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        if "failed" in r:
            print(f"| {r['kernel']} | FAILED: {r['failed'][:80]} |")
            continue
        m = r["median_ms"]
        fr = r.get("frac_copy_bw", {})
        pct = lambda v: f"{100 * fr[v]:.0f}%" if v in fr else "-"  # noqa: E731
        extra = f" ({r['TFLOPs']['pykc']:.1f} TFLOP/s)" if "TFLOPs" in r else ""
        if r.get("wrong"):
            extra += f" WRONG: {','.join(sorted(set(r['wrong'])))}"
        regs = "/".join(str(r.get("regs", {}).get(v, "?")) for v in ("pykc", "nvcc", "numba"))
        print(f"| {r['kernel']}{extra} | {m['pykc']:.4f} | {m['nvcc']:.4f} | {m.get('numba', float('nan')):.4f} | "
              f"{r['speedup_vs_nvcc']:.3f} | {r.get('speedup_vs_numba', float('nan')):.3f} | "
              f"{pct('pykc')} | {pct('nvcc')} | {pct('numba')} | {regs} |")
    print(f"| **geomean** | | | | **{summary['geomean_speedup_vs_nvcc']:.3f}** | "
          f"**{summary['geomean_speedup_vs_numba']:.3f}** | | | | |")
    print(f"\nlate host launches (host slower than the spin): {late['count']}; failed: {summary['failed']}; "
          f"wrong: {summary['wrong']}")
    return 1 if summary["failed"] or summary["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
