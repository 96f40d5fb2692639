#!/usr/bin/env python3
"""The real-world numba.cuda corpus on a GPU: every kernel signature pykc compiles
(corpus.json's --sig/-D, as run_corpus.py compiles them), launched through pykc's loader and
through numba-cuda itself on the same generated inputs; the outputs are compared.

    python3 tests/realworld_numba/corpus/run_vs_numba.py --pykc PYKC [--time] [-j N] [--json OUT] [FILTER]

numba imports each corpus file for real (its sibling modules too); libraries that the GPU
host lacks (cudf, dask, nemo's own packages, ...) are replaced by permissive stand-ins, which
is enough for module-level host code, never for kernels. Inputs are generic: arrays of 4096
elements (64x64, 16^3, 8^4 for more dimensions) of values in [0, 1) or integers in [0, 16),
integer scalars 16, float scalars 0.75; 1-D launches of 32x128 threads, or 2-D/3-D ones for
kernels that ask for `cuda.grid(2)`/`(3)`. Kernels that index with values they read (lengths,
labels) would go out of bounds on such inputs; corpus.json gives theirs (`inputs`, spelt in
corpus_inputs.py). Per kernel the verdict is:

  same          every output array has numba's bytes
  close         float outputs within rtol 1e-5/atol 1e-6 of numba's (operation order, fma)
  differs       a mismatch beyond that, where numba agrees with itself on a second run
  numba-varies  numba's own two runs differ (races, atomics order): compared within tolerance
  skipped       no generic inputs (records, RNG states, pointers) or numba refuses them
  fault         the launch faulted (through numba as well: the inputs do not suit the kernel)

With --time, each kernel that matched is then timed, pykc's build against numba's, at
sizes grown until numba's kernel takes 0.3 ms (kernel_timing.py), and the geomean speedup
is printed (issue 21: at least 1.1x).

Each file runs in its own process (a fault spoils the CUDA context). Exit status 1 when any
kernel `differs` or pykc fails where numba does not; 77 without a GPU.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from corpus_import import import_corpus_file
from numba_sig_text import numba_argtypes

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
N1, TPB = 4096, 128
SHAPES = {1: (N1,), 2: (64, 64), 3: (16, 16, 16), 4: (8, 8, 8, 8)}


# ------------------------------------------------------------------ one file

def _numpy_shim():
    """numba-cuda 0.30.4 registers an overload of np.row_stack, which NumPy 2.4 removed (seen
    on an H100 host's image): the alias it had."""
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack


def _numba_module(entry):
    """The corpus file imported by numba (package `_corpus` for its folder, so that relative
    imports of siblings work; corpus_import.py)."""
    _numpy_shim()
    import numba.cuda  # noqa: F401  (numba's own imports happen without stand-ins)
    mod, stood_in = import_corpus_file(
        os.path.join(HERE, entry["file"]), os.path.join(HERE, entry["file"].split("/")[0]),
        [os.path.join(HERE, p) for p in entry.get("python_path", [])],
        keep=("numba", "numpy", "math", "cmath", "os", "sys"))
    for d in entry.get("defines", []):
        k, v = d.split("=", 1)
        import math
        import numpy as np
        setattr(mod, k, eval(v, {"np": np, "numpy": np, "math": math}))  # corpus.json is ours
    return mod, stood_in


def _pykc_module(entry, pykc, out):
    import pykc as pk
    cmd = [pykc, "compile", os.path.join(HERE, entry["file"]), "--arch", _arch(), "-o", out, "--no-cache"]
    for s in entry.get("sigs", []):
        cmd += ["--sig", s]
    for d in entry.get("defines", []):
        cmd += ["-D", d]
    for p in entry.get("python_path", []):
        cmd += ["--python-path", os.path.join(HERE, p)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        first = r.stderr.strip().splitlines()[0] if r.stderr.strip() else f"exit {r.returncode}"
        raise RuntimeError("pykc compile failed: " + first)
    return pk.load(out, backend="cuda.core", sync=True)


def _device():
    try:
        from cuda.core import Device
    except ImportError:
        from cuda.core.experimental import Device
    return Device()


def _arch():
    major, minor = _device().compute_capability
    return f"sm_{major}{minor}"


def _array_dtype(t):
    import numpy as np
    from numba.core import types as nt
    if not isinstance(t.dtype, (nt.Integer, nt.Float, nt.Boolean, nt.Complex)):
        return None
    return np.dtype(str(t.dtype)) if not isinstance(t.dtype, nt.Boolean) else np.dtype(bool)


def _generic_values(dt, shape, rng):
    """Generic values of NumPy dtype `dt`: floats in [0, 1), complex numbers of such parts,
    random bools, integers in [0, 16) (in range as indices)."""
    if dt.kind == "f":
        return rng.random(shape).astype(dt)
    if dt.kind == "c":
        return (rng.random(shape) + 1j * rng.random(shape)).astype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    return rng.integers(0, 16, shape).astype(dt)


def _record_array(dtype, shape, rng):
    """A record array of `shape` whose fields hold generic values (nested arrays element by
    element)."""
    import numpy as np
    a = np.zeros(shape, dtype)
    for name in dtype.names:
        sub = dtype.fields[name][0]
        a[name] = _generic_values(sub.base, shape + sub.shape, rng)
    return a


def _inputs(argtypes, rng, shapes=SHAPES):
    import numpy as np
    from numba.core import types as nt
    args = []
    for t in argtypes:
        if isinstance(t, nt.Array):
            record = isinstance(t.dtype, nt.Record)
            dt = t.dtype.dtype if record else _array_dtype(t)
            if dt is None:
                return None, f"array of {t.dtype}"
            shape = () if t.ndim == 0 else shapes.get(t.ndim)
            if shape is None:
                return None, f"{t.ndim}-d array"
            if record:
                args.append(_record_array(dt, shape, rng))
                continue
            a = _generic_values(dt, shape, rng)
            args.append(np.asfortranarray(a) if t.layout == "F" else np.ascontiguousarray(a))
        elif isinstance(t, nt.Boolean):
            args.append(True)
        elif isinstance(t, nt.Integer):
            args.append(getattr(np, str(t))(16))
        elif isinstance(t, nt.Float):
            args.append(getattr(np, str(t))(0.75))
        elif isinstance(t, nt.Complex):
            args.append(getattr(np, str(t))(0.5 + 0.25j))
        else:
            return None, f"argument of type {t}"
    return args, ""


def _spec_inputs(spec, argtypes, rng, scale=1):
    """corpus.json's in-domain inputs for this kernel (corpus_inputs.py), in the signature's
    dtypes and layouts: (args, (grid, block, shared_bytes))."""
    import numpy as np
    from numba.core import types as nt
    from corpus_inputs import evaluate
    values, launch = evaluate(spec, len(argtypes), rng, scale)
    args = []
    for t, v in zip(argtypes, values):
        if isinstance(t, nt.Array):
            dt = _array_dtype(t)
            a = np.asarray(v).astype(dt)
            if a.ndim != t.ndim:
                raise ValueError(f"inputs: a {a.ndim}-d value for a {t.ndim}-d parameter")
            args.append(np.asfortranarray(a) if t.layout == "F" else np.ascontiguousarray(a))
        elif isinstance(t, nt.Boolean):
            args.append(bool(v))
        else:
            args.append(getattr(np, str(t))(v))
    return args, launch


def _launch_shape(source_text):
    """(grid, block, dynamic shared bytes) for generic inputs."""
    if re.search(r"cuda\.grid\(\s*3\s*\)", source_text):
        return (2, 2, 2), (8, 8, 8), 0
    if re.search(r"cuda\.grid\(\s*2\s*\)|blockIdx\.y|threadIdx\.y", source_text):
        return (4, 4), (16, 16), 0
    return (N1 // TPB,), (TPB,), 0


def _launch_numba(kernel, launch, args):
    """numba-cuda's launch on host arrays, which it copies in and out; where numba refuses them
    (fbpic's kernels, made for CuPy arrays: "pass a cupy.ndarray instead"), on device copies
    of them, copied back into `args` after the launch."""
    import numpy as np
    from numba import cuda
    grid, block, shared = launch
    try:
        kernel[grid, block, 0, shared](*args)
        return
    except TypeError as e:
        if "cupy.ndarray" not in str(e):
            raise
    device = [cuda.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    kernel[grid, block, 0, shared](*device)
    for a, d in zip(args, device):
        if isinstance(a, np.ndarray):
            d.copy_to_host(a)


def _compare(mine, theirs, again):
    import numpy as np
    verdict = "same"
    for k, (a, b, c) in enumerate(zip(mine, theirs, again)):
        if not isinstance(a, np.ndarray):
            continue
        if a.tobytes() == b.tobytes():
            continue
        varies = b.tobytes() != c.tobytes()
        if a.dtype.kind in "fc" and np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True):
            verdict = "numba-varies" if varies else ("close" if verdict == "same" else verdict)
            continue
        if varies:
            verdict = "numba-varies"
            continue
        bad = ~((a == b) | ((a != a) & (b != b)))
        i = int(np.flatnonzero(bad.ravel())[0])
        return "differs", f"arg {k}: {int(bad.sum())} of {a.size} differ (first at {i}: " \
                          f"{a.ravel()[i]!r} vs numba {b.ravel()[i]!r})"
    return verdict, ""


def _gpu_lock(path):
    """An exclusive lock (fcntl) on `path` while the files' processes of `-j` time their
    kernels: one process times at a time, the others keep compiling and comparing."""
    import contextlib
    import fcntl

    @contextlib.contextmanager
    def held():
        if not path:
            yield
            return
        with open(path, "a", encoding="utf-8") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)
    return held()


def _time_rows(timed, out):
    """--time: the kernel times of the rows that matched (kernel_timing.py says how)."""
    import numpy as np
    import pykc as pk
    from kernel_timing import Timer, grown, time_kernel
    mine, timer = pk.load(out, backend="cuda.core", sync=False), Timer()
    for row, theirs, argtypes, launch_shape, spec in timed:
        def make(step, argtypes=argtypes, launch_shape=launch_shape, spec=spec):
            rng = np.random.default_rng(20261205)
            if spec is not None:
                if step and not spec.get("grow"):
                    return None  # sizes fixed by the kernel's -D constants
                return _spec_inputs(spec, argtypes, rng, 2 ** step)
            shapes, launch = grown(dict(SHAPES), launch_shape, step)
            return _inputs(argtypes, rng, shapes)[0], launch
        try:
            row["time"] = time_kernel(timer, theirs, getattr(mine, row["kernel"]), make)
        except Exception as e:  # noqa: BLE001 - a fault spoils the context: stop here
            row["time"] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"}
            return


def _kernel_signatures(entry, ref, sigutils):
    """(name, signature text, numba argument types or why not) per kernel signature to run:
    corpus.json's `sigs`, or, for files whose kernels carry their signatures in the decorator
    (no `sigs`: pykc compiles them as they are), each listed kernel's eager signatures as
    numba-cuda compiled them at import."""
    for sig in entry.get("sigs", []):
        name, _, rest = sig.partition("(")
        try:
            yield name, sig, sigutils.normalize_signature("void(" + rest)[0]
        except Exception:  # noqa: BLE001 - records as numba prints them, 0-d arrays
            try:
                yield name, sig, numba_argtypes(sig)
            except Exception as e:  # noqa: BLE001
                yield name, sig, f"signature numba cannot read ({type(e).__name__}: {e})"
    if entry.get("sigs"):
        return
    for name in entry.get("kernels", []):
        d = getattr(ref, name.split(".")[-1], None)
        sigs = list(getattr(d, "signatures", None) or [])
        if not sigs or getattr(d, "targetoptions", {}).get("device"):
            yield name, f"{name}(?)", "no eager kernel signature in the numba module"
            continue
        for argtypes in sigs:
            yield name, f"{name}({', '.join(str(t) for t in argtypes)})", tuple(argtypes)


def run_file(entry, pykc, time=False, lock=None):
    _numpy_shim()
    import numpy as np
    from numba.core import sigutils
    result = {"file": entry["file"], "kernels": []}
    try:
        ref, stood_in = _numba_module(entry)
        result["stand_ins"] = stood_in
        result["skipped_statements"] = ref.__skipped__
    except Exception as e:  # noqa: BLE001 - any import failure is reported, not raised
        result["error"] = f"numba import: {type(e).__name__}: {e}"
        return result
    timed = []
    with tempfile.TemporaryDirectory(prefix="pykc-vs-numba-") as out:
        try:
            mine = _pykc_module(entry, pykc, out)
        except Exception as e:  # noqa: BLE001
            result["error"] = f"pykc: {type(e).__name__}: {e}"
            return result
        text = open(os.path.join(HERE, entry["file"]), encoding="utf-8", errors="replace").read()
        # with --time the GPU work (launches, comparisons, timing) holds the lock: another
        # file's launches must not run beside a timing round
        with _gpu_lock(lock if time else None):
            for name, sig, argtypes in _kernel_signatures(entry, ref, sigutils):
                row = {"kernel": name, "sig": sig}
                result["kernels"].append(row)
                if isinstance(argtypes, str):
                    row.update(verdict="skipped", why=argtypes)
                    continue
                rng = np.random.default_rng(20261205)
                spec = entry.get("inputs", {}).get(name)
                if spec is not None:
                    args, (grid, block, shared) = _spec_inputs(spec, argtypes, rng)
                    row["inputs"] = "corpus.json"
                else:
                    args, why = _inputs(argtypes, rng)
                    if args is None:
                        row.update(verdict="skipped", why=why)
                        continue
                    m = re.search(r"def\s+" + re.escape(name) + r"\s*\(", text)
                    body = text[m.start():m.start() + 6000] if m else text
                    grid, block, shared = _launch_shape(body)
                copy = lambda: [a.copy(order="K") if isinstance(a, np.ndarray) else a for a in args]  # noqa: E731
                theirs, again, ours = copy(), copy(), copy()
                try:
                    _launch_numba(getattr(ref, name), (grid, block, shared), theirs)
                    _launch_numba(getattr(ref, name), (grid, block, shared), again)
                    from numba import cuda
                    cuda.synchronize()
                except Exception as e:  # noqa: BLE001
                    msg = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
                    row.update(verdict="fault" if "CUDA_ERROR" in msg or "CudaAPIError" in msg else "skipped",
                               why="numba: " + msg[:300])
                    if row["verdict"] == "fault":
                        return result
                    continue
                try:
                    getattr(mine, name)[grid, block, None, shared](*ours)
                except Exception as e:  # noqa: BLE001
                    row.update(verdict="pykc-error", why=f"{type(e).__name__}: {str(e)[:300]}")
                    continue
                row["verdict"], row["why"] = _compare(ours, theirs, again)
                if row["verdict"] in ("same", "close", "numba-varies"):
                    timed.append((row, getattr(ref, name), argtypes, (grid, block, shared), spec))
            if time and timed:
                _time_rows(timed, out)
    return result


# ------------------------------------------------------------------ driver

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pykc", default=os.path.join(ROOT, "build", "bin", "pykc"))
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--time", action="store_true",
                    help="also time each matching kernel, pykc's build against numba's "
                         "(kernel_timing.py); prints the geomean speedup")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="files at a time (each in its own process; with --time they take turns "
                         "on the GPU for the timing, so that times are not shared)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--lock", help=argparse.SUPPRESS)
    ap.add_argument("filter", nargs="?", default="")
    a = ap.parse_args()
    entries = json.load(open(os.path.join(HERE, "corpus.json"), encoding="utf-8"))
    if a.one is not None:
        print(json.dumps(run_file(entries[a.one], a.pykc, a.time, a.lock)))
        return 0
    try:
        _device().set_current()
    except Exception as e:  # noqa: BLE001
        print(f"run_vs_numba: skipped: no GPU ({type(e).__name__}: {e})")
        return 77
    import concurrent.futures
    import tempfile
    chosen = [(i, e) for i, e in enumerate(entries)
              if a.filter in e["file"] and (e.get("sigs") or e.get("kernels")) and not e.get("skip")]
    lock = os.path.join(tempfile.mkdtemp(prefix="pykc-vs-numba-"), "gpu.lock")

    def one(item):
        i, entry = item
        p = subprocess.run([sys.executable, __file__, "--pykc", a.pykc, "--one", str(i), "--lock", lock]
                           + (["--time"] if a.time else []),
                           capture_output=True, text=True, timeout=600)
        try:
            return json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return {"file": entry["file"], "kernels": [], "error": "crashed: " + p.stderr[-600:]}

    results, counts, speedups = [], {}, []
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        for (_, entry), r in zip(chosen, pool.map(one, chosen)):
            results.append(r)
            line = r.get("error") or ", ".join(f"{k['kernel']} {k['verdict']}" for k in r["kernels"])
            print(f"{entry['file']}: {line}", flush=True)
            for k in r["kernels"]:
                counts[k["verdict"]] = counts.get(k["verdict"], 0) + 1
                if k["verdict"] not in ("same", "close", "numba-varies"):
                    print(f"    {k['kernel']}: {k['verdict']}: {k.get('why', '')}")
                t = k.get("time", {})
                if "speedup" in t:
                    speedups.append(t["speedup"])
                    print(f"    {k['kernel']}: numba {t['numba_ms'] * 1e3:.1f} us, pykc "
                          f"{t['pykc_ms'] * 1e3:.1f} us: {t['speedup']:.2f}x ({t['elements']} elements)")
                elif "error" in t:
                    print(f"    {k['kernel']}: not timed: {t['error']}")
            if "error" in r:
                counts["file-error"] = counts.get("file-error", 0) + 1
    print("kernel signatures: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    summary = {}
    if speedups:
        import math
        summary = {"timed": len(speedups),
                   "geomean_speedup": math.exp(sum(map(math.log, speedups)) / len(speedups)),
                   "below_0_9": sum(x < 0.9 for x in speedups)}
        print(f"kernel time, pykc vs numba-cuda: geomean {summary['geomean_speedup']:.3f}x over "
              f"{summary['timed']} kernels, {summary['below_0_9']} below 0.9x")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"counts": counts, "speed": summary, "files": results}, f, indent=1)
    return 1 if counts.get("differs") or counts.get("pykc-error") else 0


if __name__ == "__main__":
    sys.exit(main())
