"""Compile speed where users are: pykc against nvcc, NVRTC, ptxas and numba-cuda in one
run, with nothing but Python (no hyperfine, no build). Runs on the GPU host and here.

    python3 bench/compile/gpu_host.py [--pykc PATH] [--rounds 9] [--files k01,k10]
        [--arch sm_90] [--json OUT] [--time-limit S] [--numba-python PY] [--no-numba] [--dry-run]

Per kernel file pair in bench/compile/kernels (kNN.py, kNN.cu; the signatures are in the
sources), each round times, in a rotating order: pykc cold (`--no-cache`), a pykc warm hit
(`--cache-dir` filled before round 0), pykc `--phase ptx`, standalone `ptxas -O3` on pykc's
PTX (with the PTX time, the floor under a cold compile), `nvcc -cubin -O3`, NVRTC
(nvrtc_driver.cpp built with g++, else libnvrtc through ctypes, timed from its dlopen), and
numba-cuda in a fresh process (the whole process: start, import, context, compile) and in
one warm process (the file's source exec'd into a new namespace each time: new dispatchers,
a real compile). With a GPU, numba compiles at decoration to a loaded cubin; without one it
stops at PTX (compile_ptx for (9, 0), as numba_compile.py) and the table says so. Round 0
warms every tool up and is not counted; with --time-limit S no round starts that would end
past S seconds from the start (judged by the round before). Tools are looked for in
$CUDA_HOME, PATH, /usr/local/cuda* and NVIDIA's pip wheels; a missing one is skipped with a
message. Prints markdown for docs/BENCHMARKS.md; --json keeps every sample.
"""
import argparse
import ctypes
import ctypes.util
import glob
import hashlib
import importlib.util
import json
import math
import os
import platform
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS = os.path.join(HERE, "kernels")
LABELS = {"pykc_cold": "pykc cold", "pykc_warm": "pykc warm hit", "pykc_ptx": "pykc to PTX",
          "ptxas": "ptxas -O3", "ptxas_split": "ptxas -O3 --split-compile 8",
          "nvcc": "nvcc -cubin -O3", "nvrtc": "NVRTC",
          "numba_warm": "numba warm", "numba_fresh": "numba fresh"}
NOTES = ("pykc_cold: --no-cache; pykc_warm: --cache-dir filled before round 0; ptxas: on the PTX of "
         "pykc --phase ptx; ptxas_split: the same with 8 threads, as pykc links a file of several kernels; "
         "the floor is pykc to PTX + the faster of the two; nvrtc: the driver process's wall time, or with ctypes the time from dlopen "
         "to the written cubin; numba_fresh: the whole process (start, import, context, compile); "
         "numba_warm: a compile of a fresh exec of the file in a process that compiled it before; "
         "with a GPU numba's time includes loading the cubin (its eager compile does); "
         "CUDA_CACHE_DISABLE=1 for every process")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def tail(text, n=2):
    """The last `n` non-empty lines of a tool's output, on one line (errors end there)."""
    return " / ".join([x.strip() for x in text.splitlines() if x.strip()][-n:])[-300:]


def first_line(argv, last=False):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        lines = [x for x in (out.stdout + out.stderr).splitlines() if x.strip()] or ["?"]
        return lines[-1] if last else lines[0]
    except (OSError, subprocess.SubprocessError) as e:
        return f"? ({e})"


# ---------------------------------------------------------------- finding the tools

def cuda_dirs():
    """CUDA roots: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda*, then NVIDIA's pip wheels
    (nvidia/cu13, nvidia/cuda_nvrtc, ...), newest first within each."""
    dirs = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH")]
    dirs += ["/usr/local/cuda"] + sorted(glob.glob("/usr/local/cuda-*"), reverse=True)
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        dirs += sorted(glob.glob(os.path.join(root, "*")), reverse=True)
    return [d for d in dirs if d and os.path.isdir(d)]


def find_program(name):
    """$CUDA_HOME/bin, then PATH, then the other CUDA roots."""
    home = os.environ.get("CUDA_HOME")
    paths = ([os.path.join(home, "bin", name)] if home else []) + [shutil.which(name)]
    paths += [os.path.join(d, "bin", name) for d in cuda_dirs()]
    return next((p for p in paths if p and os.access(p, os.X_OK)), None)


def find_nvrtc_lib():
    for d in (os.path.join(r, sub) for r in cuda_dirs() for sub in ("lib64", "lib")):
        libs = [p for p in glob.glob(os.path.join(d, "libnvrtc.so*")) if "builtins" not in p]
        if libs:
            return max(libs, key=len)  # the versioned name, e.g. libnvrtc.so.13
    return ctypes.util.find_library("nvrtc")


def nvrtc_version(lib):
    try:
        major, minor = ctypes.c_int(), ctypes.c_int()
        ctypes.CDLL(lib).nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        return f"{major.value}.{minor.value}"
    except OSError as e:
        return f"? ({e})"


def build_nvrtc_driver(lib, work):
    """nvrtc_driver.cpp against `lib`, if g++ and nvrtc.h are there; else None (ctypes)."""
    gxx, libdir = shutil.which("g++"), os.path.dirname(lib)
    incs = [os.path.join(os.path.dirname(libdir), "include")] + [os.path.join(d, "include") for d in cuda_dirs()]
    inc = next((i for i in incs if os.path.exists(os.path.join(i, "nvrtc.h"))), None)
    if not gxx or not inc:
        log(f"NVRTC: {'no g++' if not gxx else 'no nvrtc.h'}; using libnvrtc through ctypes")
        return None
    exe = os.path.join(work, "nvrtc_driver")
    res = subprocess.run([gxx, "-O2", "-std=c++17", "-I" + inc, os.path.join(HERE, "nvrtc_driver.cpp"), lib,
                          "-Wl,-rpath," + libdir, "-o", exe], capture_output=True, text=True)
    if res.returncode != 0:
        log(f"NVRTC: g++ failed ({tail(res.stderr)}); using libnvrtc through ctypes")
        return None
    return exe


def probe_numba(python, env):
    try:
        res = subprocess.run([python, __file__, "--numba-worker", "probe"], capture_output=True,
                             text=True, env=env, timeout=120)
        info = dict(json.loads(res.stdout.strip().splitlines()[-1]), python=python)
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        log(f"numba: `import numba.cuda` fails under {python}; numba rows skipped")
        return None
    if not info["gpu"]:
        log("numba: no GPU here: numba compiles to PTX only (compile_ptx, cc 9.0), no cubin")
    return info


def discover(a, work, env):
    """The tools found and their versions; a missing tool is None (its rows are skipped)."""
    tools = {"pykc": a.pykc if a.pykc and os.access(a.pykc, os.X_OK) else None,
             "nvcc": find_program("nvcc"), "ptxas": find_program("ptxas"), "nvrtc_lib": find_nvrtc_lib()}
    versions = {"python": sys.version.split()[0], "pykc": tools["pykc"] and first_line([a.pykc, "--version"]),
                "pykc_sha256": tools["pykc"] and hashlib.sha256(open(a.pykc, "rb").read()).hexdigest()[:16],
                "pykc_source": a.pykc_source,
                "nvcc": tools["nvcc"] and first_line([tools["nvcc"], "--version"], last=True),
                "ptxas": tools["ptxas"] and first_line([tools["ptxas"], "--version"], last=True),
                "nvrtc": tools["nvrtc_lib"] and nvrtc_version(tools["nvrtc_lib"]),
                "g++": shutil.which("g++") and first_line(["g++", "--version"])}
    if tools["nvrtc_lib"] and a.nvrtc != "ctypes":
        tools["nvrtc_driver"] = (os.path.join(work, "nvrtc_driver") + " (g++ builds it, or ctypes)" if a.dry_run
                                 else build_nvrtc_driver(tools["nvrtc_lib"], work))
    tools["numba"] = None if a.no_numba or a.dry_run else probe_numba(a.numba_python, env)
    if tools["numba"]:
        versions["numba"] = {k: tools["numba"][k] for k in ("numba", "numba_cuda", "gpu")}
    return tools, versions


# ---------------------------------------------------------------- workers (child processes)

def nvrtc_worker(lib, src_path, out_path, arch):
    """One NVRTC compile through ctypes; prints its time from dlopen to the written cubin."""
    t0 = time.perf_counter()
    nvrtc, prog, size = ctypes.CDLL(lib), ctypes.c_void_p(), ctypes.c_size_t()
    nvrtc.nvrtcGetErrorString.restype = ctypes.c_char_p

    def check(rc, what):
        if rc != 0:
            sys.exit(f"nvrtc {what}: {nvrtc.nvrtcGetErrorString(rc).decode()}")
    src = open(src_path, "rb").read()
    check(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, src_path.encode(), 0, None, None), "create")
    opts = [f"-arch={arch}".encode(), b"-default-device"]
    rc = nvrtc.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    if rc != 0:
        nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(prog, buf)
        log(buf.value.decode(errors="replace"))
    check(rc, "compile")
    check(nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "cubin size")
    cubin = ctypes.create_string_buffer(size.value)
    check(nvrtc.nvrtcGetCUBIN(prog, cubin), "cubin")
    nvrtc.nvrtcDestroyProgram(ctypes.byref(prog))
    with open(out_path, "wb") as fh:
        fh.write(cubin.raw)
    print(json.dumps({"ms": 1e3 * (time.perf_counter() - t0)}))


def numba_compiler(cuda, gpu):
    """A function FILE -> (ms, kernel signatures) that compiles every kernel of FILE afresh."""
    count = [0]

    def run_file(path):
        count[0] += 1
        g = {"__name__": f"bench_{count[0]}", "__file__": path}
        exec(compile(open(path).read(), path, "exec"), g)
        return g
    if gpu:
        def compile_file(path):
            # Kernels with signatures compile at decoration: _Kernel, bind(), cubin, module load.
            t0 = time.perf_counter()
            g = run_file(path)
            ms = 1e3 * (time.perf_counter() - t0)
            kernels = [v for v in g.values() if hasattr(v, "overloads")
                       and not getattr(v, "targetoptions", {}).get("device", True)]
            return ms, sum(len(k.overloads) for k in kernels)
        return compile_file
    sys.path.insert(0, HERE)
    import numba_compile as nc  # its recorder; it answers (9, 0) for the current device

    def compile_file(path):
        t0 = time.perf_counter()
        nc._recorded.clear()
        cuda.jit = nc._recording_jit
        try:
            run_file(path)
        finally:
            cuda.jit = nc._real_jit
        sigs = [(f, sig, opts) for _, f, siglist, opts in nc._recorded for sig in siglist]
        for f, sig, opts in sigs:
            cuda.compile_ptx(f, sig, cc=(9, 0), **opts)
        return 1e3 * (time.perf_counter() - t0), len(sigs)
    return compile_file


def numba_worker(mode, path):
    """probe: versions; fresh: compile `path` once; warm: compile each path read from stdin.
    Answers are JSON lines on the original stdout; numba's own prints go to stderr."""
    t0 = time.perf_counter()
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # numba-cuda 0.30.4 overloads it; NumPy 2.4 removed it
    import numba
    from numba import cuda
    gpu = bool(cuda.is_available())
    compile_file = numba_compiler(cuda, gpu)
    info = {"import_ms": 1e3 * (time.perf_counter() - t0), "gpu": gpu, "numba": numba.__version__,
            "numba_cuda": getattr(importlib.import_module("numba_cuda"), "__version__", "?")
            if importlib.util.find_spec("numba_cuda") else "none: numba's built-in CUDA target"}
    if mode == "fresh":
        ms, n = compile_file(path)
        info.update(compile_ms=ms, signatures=n)
    proto.write(json.dumps(info) + "\n")
    for line in sys.stdin if mode == "warm" else []:
        try:
            ms, n = compile_file(line.strip())
            proto.write(json.dumps({"ms": ms, "signatures": n}) + "\n")
        except Exception as e:  # noqa: BLE001 - reported; the next file goes on
            proto.write(json.dumps({"error": f"{type(e).__name__}: {e}"[:400]}) + "\n")


class WarmNumba:
    """One long-lived numba worker, sent one file per request; its answers are read by a
    thread so that a hung compile times out."""

    def __init__(self, python, env, timeout, log_path):
        self.log_path, self.timeout, self.lines = log_path, timeout, queue.Queue()
        self.proc = subprocess.Popen([python, __file__, "--numba-worker", "warm"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=open(log_path, "w"), text=True, env=env)
        threading.Thread(target=self.pump, daemon=True).start()
        self.info = self.read()

    def pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def read(self):
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            line = None
        if line is None:
            self.proc.kill()
            raise RuntimeError(f"numba warm worker gone or over {self.timeout:.0f} s: {tail(open(self.log_path).read())}")
        return json.loads(line)

    def compile(self, path):
        if self.proc.poll() is not None:
            raise RuntimeError("numba warm worker is gone")
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()
        ans = self.read()
        if "error" in ans:
            raise RuntimeError(ans["error"])
        return ans["ms"], ans

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


# ---------------------------------------------------------------- what runs per peer

def prepare_file(tools, name, work, arch, env):
    """PTX for ptxas and a warm cache (filled, then checked to hit); facts, or None."""
    py = os.path.join(KERNELS, name + ".py")
    base = [tools["pykc"], "-v", "compile", py, "--arch", arch, "--no-remote", "-o"]
    warm = base + [os.path.join(work, "fill", name), "--cache-dir", os.path.join(work, "cache")]
    said = []
    for argv in (base + [os.path.join(work, "ptx", name), "--no-cache", "--phase", "ptx"], warm, warm):
        res = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
        if res.returncode != 0:
            log(f"{name}: pykc failed ({tail(res.stderr)}); file skipped")
            return None
        said.append([x for x in res.stderr.splitlines() if "cache hit" in x or "cache miss" in x])
    if not any("cache hit" in x for x in said[2]):
        log(f"{name}: the second cached compile did not say `cache hit`: {said[2]}")
    manifest = json.load(open(os.path.join(work, "fill", name, "manifest.json")))
    return {"kernels": len(manifest.get("kernels", [])), "lines_py": sum(1 for _ in open(py)),
            "warm_check": (said[2] or ["?"])[0].split(" (")[0].replace(KERNELS + "/", "")}


def peer_commands(tools, name, work, arch):
    """argv per peer for one file (numba_warm is no process: None)."""
    py, cu, out = os.path.join(KERNELS, name + ".py"), os.path.join(KERNELS, name + ".cu"), os.path.join(work, "out")
    pykc = [tools["pykc"], "compile", py, "--arch", arch, "--no-remote", "-o"]
    cmds = {"pykc_cold": pykc + [out + "_cold", "--no-cache"],
            "pykc_warm": pykc + [out + "_warm", "--cache-dir", os.path.join(work, "cache")],
            "pykc_ptx": pykc + [out + "_ptx", "--no-cache", "--phase", "ptx"]}
    if tools.get("ptxas"):
        ptx = os.path.join(work, "ptx", name, f"{name}.{arch}.ptx")
        cmds["ptxas"] = [tools["ptxas"], f"-arch={arch}", "-O3", ptx, "-o", out + "_ptxas.cubin"]
        cmds["ptxas_split"] = cmds["ptxas"][:-2] + ["--split-compile", "8", "-o", out + "_ptxas_split.cubin"]
    if tools.get("nvcc"):
        cmds["nvcc"] = [tools["nvcc"], "-cubin", "-O3", f"-arch={arch}", cu, "-o", out + "_nvcc.cubin"]
    if tools.get("nvrtc_driver"):
        cmds["nvrtc"] = [tools["nvrtc_driver"], cu, out + "_nvrtc.cubin", "--arch", arch]
    elif tools.get("nvrtc_lib"):
        cmds["nvrtc"] = [sys.executable, __file__, "--nvrtc-worker", tools["nvrtc_lib"], cu, out + "_nvrtc.cubin", arch]
    if tools.get("numba"):
        cmds["numba_fresh"] = [tools["numba"]["python"], __file__, "--numba-worker", "fresh", py]
        cmds["numba_warm"] = None
    return cmds


def run_timed(argv, env, timeout):
    """Wall ms of one process and its last stdout line if that is JSON; raises on failure."""
    t0 = time.perf_counter()
    res = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
    ms = 1e3 * (time.perf_counter() - t0)
    if res.returncode != 0:
        raise RuntimeError(f"exit {res.returncode}: {tail(res.stderr or res.stdout)}")
    last = (res.stdout.strip().splitlines() or [""])[-1]
    return ms, json.loads(last) if last.startswith("{") else None


def measure(peer, argv, name, ctx):
    """(ms, what the child said). NVRTC through ctypes counts from its dlopen: Python's start
    is no part of NVRTC. numba fresh counts the whole process."""
    if peer == "numba_warm":
        return ctx["warm"].compile(os.path.join(KERNELS, name + ".py"))
    ms, said = run_timed(argv, ctx["env"], ctx["timeout"])
    return (said["ms"], said) if peer == "nvrtc" and not ctx["tools"].get("nvrtc_driver") else (ms, said)


def run_rounds(a, files, cmds, ctx, t_start):
    """Round 0 warms up; rounds 1..N are recorded. Returns samples[file][peer] (ms), what the
    numba children said, and the failures (a peer that fails once is dropped for that file)."""
    samples = {f: {p: [] for p in cmds[f]} for f in files}
    said = {f: {"numba_fresh": [], "numba_warm": []} for f in files}
    failed = {}
    for rnd in range(a.rounds + 1):
        t_round = time.perf_counter()
        for name in files:
            peers = list(cmds[name])
            for peer in peers[rnd % len(peers):] + peers[:rnd % len(peers)]:
                if (name, peer) in failed:
                    continue
                try:
                    ms, child = measure(peer, cmds[name][peer], name, ctx)
                except (RuntimeError, subprocess.SubprocessError, OSError, ValueError) as e:
                    failed[(name, peer)] = str(e)
                    log(f"  {name} {peer}: failed, skipped from now on: {e}")
                    continue
                if rnd > 0:
                    samples[name][peer].append(ms)
                    if peer in said[name]:
                        said[name][peer].append(child)
        took = time.perf_counter() - t_round
        log(f"round {rnd}{' (warm-up)' if rnd == 0 else ''}: {took:.1f} s, load {os.getloadavg()[0]:.2f}")
        if a.time_limit and rnd < a.rounds and time.perf_counter() - t_start + took > a.time_limit:
            log(f"stopping after round {rnd}: another would end past --time-limit {a.time_limit:.0f} s")
            break
    return samples, said, {f"{f} {p}": e for (f, p), e in failed.items()}


# ---------------------------------------------------------------- the report

def summarize(samples):
    return {f: {p: {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}
                for p, v in ps.items() if v} for f, ps in samples.items()}


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def fmt(x, digits=0):
    return "-" if x is None else f"{x:.{digits}f}"


def ratios(st):
    """Per file: peer median / pykc cold median; pykc cold against ptxas and the floor
    (pykc to PTX + ptxas on that PTX)."""
    out = {}
    for f, s in st.items():
        med = {p: v["median"] for p, v in s.items()}
        cold = med.get("pykc_cold")
        r = {p: med[p] / cold for p in ("nvcc", "nvrtc", "numba_warm", "numba_fresh") if p in med and cold}
        if cold and "ptxas" in med:
            ptxas = min(med["ptxas"], med.get("ptxas_split", med["ptxas"]))
            r["pykc_over_ptxas"] = cold / ptxas
            if "pykc_ptx" in med:
                r["pykc_over_floor"] = cold / (med["pykc_ptx"] + ptxas)
        out[f] = r
    return out


def markdown(st, rat, facts, numba_info):
    """Two tables: medians (ms) with the two headline ratios, then the other ratios."""
    note = "" if not numba_info else (" (cubin, loaded)" if numba_info["gpu"] else " (PTX only: no GPU)")
    peers = [p for p in LABELS if any(p in s for s in st.values())]
    heads = [LABELS[p] + (note if p.startswith("numba") else "") for p in peers]
    g = {k: geomean([r.get(k) for r in rat.values()])
         for k in ("nvcc", "nvrtc", "numba_warm", "numba_fresh", "pykc_over_ptxas", "pykc_over_floor")}
    lines = ["| file | kernels | " + " | ".join(heads) + " | nvcc/pykc | numba warm/pykc |",
             "|---|---:|" + "---:|" * (len(peers) + 2)]
    for f, s in st.items():
        cells = [fmt(s[p]["median"], 1 if s[p]["median"] < 20 else 0) if p in s else "-" for p in peers]
        lines.append(f"| {f} | {facts[f]['kernels']} | " + " | ".join(cells)
                     + f" | {fmt(rat[f].get('nvcc'), 2)} | {fmt(rat[f].get('numba_warm'), 2)} |")
    lines.append("| **geomean** | |" + " |" * len(peers) + f" **{fmt(g['nvcc'], 2)}** | **{fmt(g['numba_warm'], 2)}** |")
    keys = ("nvrtc", "numba_fresh", "pykc_over_ptxas", "pykc_over_floor")
    lines += ["", "| file | NVRTC/pykc | numba fresh/pykc | pykc cold/ptxas (faster of 1 and 8 threads) "
              "| pykc cold/(to PTX + ptxas) |",
              "|---|---:|---:|---:|---:|"]
    lines += [f"| {f} | " + " | ".join(fmt(r.get(k), 2) for k in keys) + " |" for f, r in rat.items()]
    lines.append("| **geomean** | " + " | ".join(f"**{fmt(g[k], 2)}**" for k in keys) + " |")
    return "\n".join(lines), g


def targets(st, rat, facts, g):
    """Issue 20's three targets, met or missed."""
    def verdict(ok):
        return "met" if ok else "missed"
    lines = [] if g["nvcc"] is None else [f"- cold compile >= 10x nvcc -cubin -O3 (geomean): {g['nvcc']:.2f}x: "
                                          f"{verdict(g['nvcc'] >= 10)}"]
    nw = {f: r["numba_warm"] for f, r in rat.items() if "numba_warm" in r}
    if nw:
        low = min(nw, key=nw.get)
        lines.append(f"- >= 5x numba-cuda in a warm process, per file: {sum(v >= 5 for v in nw.values())}/{len(nw)} "
                     f"files (lowest {nw[low]:.2f}x, {low}): {verdict(nw[low] >= 5)}")
    one = next((f for f in st if facts[f]["kernels"] == 1 and "pykc_cold" in st[f]), None)
    if one:
        cold, floor = st[one]["pykc_cold"]["median"], st[one].get("ptxas", {}).get("median")
        lines.append(f"- one-kernel file under 40 ms ({one}): {cold:.1f} ms: {verdict(cold < 40)}"
                     + (f"; ptxas alone on its PTX {floor:.1f} ms" if floor else ""))
    return "\n".join(lines)


def machine_info():
    def read(path, key):
        try:
            line = next((x for x in open(path) if x.startswith(key)), "")
            return line[len(key):].lstrip(" \t=:").strip().strip('"') or None
        except OSError:
            return None
    smi = ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]
    return {"host": platform.node(), "os": read("/etc/os-release", "PRETTY_NAME"),
            "cpu": read("/proc/cpuinfo", "model name"), "cores": os.cpu_count(),
            "gpu": shutil.which("nvidia-smi") and first_line(smi),
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "git": shutil.which("git") and first_line(["git", "-C", ROOT, "log", "-1", "--format=%h %s"])}


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pykc", default=os.environ.get("PYKC") or os.path.join(ROOT, "build", "bin", "pykc"))
    ap.add_argument("--rounds", type=int, default=9, help="recorded rounds, after one warm-up round")
    ap.add_argument("--files", default="", help="comma-separated name prefixes, e.g. k01,k10 (default: all)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--json", help="write everything here")
    ap.add_argument("--time-limit", type=float, default=0,
                    help="seconds from the start: no round starts that would end past it (0: no limit)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds for one compile")
    ap.add_argument("--numba-python", default=sys.executable, help="the Python that has numba-cuda")
    ap.add_argument("--no-numba", action="store_true")
    ap.add_argument("--nvrtc", choices=("auto", "ctypes"), default="auto",
                    help="auto: nvrtc_driver.cpp built with g++ where it builds, else ctypes")
    ap.add_argument("--dry-run", action="store_true", help="list the tools and commands, run nothing")
    ap.add_argument("--numba-worker", choices=("probe", "fresh", "warm"), help=argparse.SUPPRESS)
    ap.add_argument("--nvrtc-worker", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("worker_file", nargs="?", help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def select_files(spec):
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(KERNELS, "k*.py")))
    wanted = [w for w in spec.split(",") if w]
    return [n for n in names if os.path.exists(os.path.join(KERNELS, n + ".cu"))
            and (not wanted or any(n.startswith(w) for w in wanted))]


def report_tools(files, tools, versions):
    log(f"files: {', '.join(files)}\ntools:")
    for key in ("pykc", "nvcc", "ptxas", "nvrtc_lib", "nvrtc_driver"):
        missing = "none: NVRTC through ctypes" if key == "nvrtc_driver" else "not found: skipped"
        log(f"  {key:13s} {tools.get(key) or missing}")
    log(f"  {'numba':13s} {versions.get('numba') or 'skipped'}")
    log("  versions: " + json.dumps({k: v for k, v in versions.items() if k != "numba"}))


def main(argv):
    a = parse_args(argv)
    if a.nvrtc_worker:
        return nvrtc_worker(*a.nvrtc_worker)
    if a.numba_worker:
        return numba_worker(a.numba_worker, a.worker_file)
    t_start = time.perf_counter()
    work = tempfile.mkdtemp(prefix="pykc-gpu-host-bench.")
    env = dict(os.environ, CUDA_CACHE_DISABLE="1", NUMBA_CACHE_DIR=os.path.join(work, "numba-cache"),
               PYKC_CACHE_DIR=os.path.join(work, "unused-cache"))
    env.pop("PYKC_REMOTE_STORAGE", None)
    a.pykc_source = a.pykc
    if not a.dry_run and a.pykc and os.path.isfile(a.pykc):
        # A frozen copy: a rebuild of the original during the run must not change what is timed.
        a.pykc = shutil.copy2(a.pykc, os.path.join(work, "pykc"))
    try:
        return bench(a, select_files(a.files), work, env, t_start)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bench(a, files, work, env, t_start):
    tools, versions = discover(a, work, env)
    report_tools(files, tools, versions)
    if a.dry_run:
        for name in files:
            for peer, argv in peer_commands(dict(tools, pykc=tools["pykc"] or a.pykc), name, work, a.arch).items():
                print(f"{name} {peer}: {' '.join(argv) if argv else 'in the warm numba process'}")
        return 0
    if not tools["pykc"] or not files:
        log(f"no pykc at {a.pykc} (--pykc or $PYKC)" if not tools["pykc"] else "no kernel files match --files")
        return 3
    load_before = os.getloadavg()
    facts = {f: prepare_file(tools, f, work, a.arch, env) for f in files}
    files = [f for f in files if facts[f]]
    cmds = {f: peer_commands(tools, f, work, a.arch) for f in files}
    warm = tools["numba"] and WarmNumba(tools["numba"]["python"], env, a.timeout, os.path.join(work, "numba.log"))
    samples, said, failures = run_rounds(a, files, cmds, {"env": env, "timeout": a.timeout, "tools": tools,
                                                          "warm": warm}, t_start)
    if warm:
        warm.close()
    st = summarize(samples)
    rat = ratios(st)
    table, g = markdown(st, rat, facts, tools["numba"])
    tgt = targets(st, rat, facts, g)
    rounds = min((v["n"] for s in st.values() for v in s.values()), default=0)
    print(f"Compile time, {a.arch}, median ms of {rounds} interleaved rounds after a warm-up round "
          f"({time.perf_counter() - t_start:.0f} s in all, load {load_before[0]:.2f} -> "
          f"{os.getloadavg()[0]:.2f}); ratio = peer / pykc cold (above 1: pykc faster)\n\n{table}\n\n{tgt}")
    if failures:
        print("\nfailed, then skipped: " + "; ".join(f"{k}: {v[:160]}" for k, v in failures.items()))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"machine": dict(machine_info(), load_before=load_before, load_after=os.getloadavg()),
                       "tools": {k: v for k, v in tools.items() if k != "numba"}, "numba": tools["numba"],
                       "versions": versions, "arch": a.arch, "rounds": rounds, "files": facts,
                       "samples_ms": samples, "numba_said": said, "stats_ms": st, "ratios": rat,
                       "geomean": g, "failures": failures, "markdown": table, "targets": tgt,
                       "notes": NOTES}, fh, indent=1)
        log(f"wrote {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
