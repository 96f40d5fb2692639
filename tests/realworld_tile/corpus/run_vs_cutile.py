#!/usr/bin/env python3
"""The real-world cuTile corpus on a GPU: every corpus.json kernel that pykc compiles (its
--sig and --const flags, as run_corpus.py compiles them), launched through pykc's AOT output
(the CLI's manifest and cubin, pykc's loader, `pykc.launch`) and through NVIDIA's cuTile
itself (the corpus file imported with the real `cuda.tile`, `ct.launch(stream, grid, kernel,
args)` with the constants as Python values) on the same generated inputs; the outputs are
compared (issue 22: "matches on the H200", "at least 1.0x cuTile's kernel time").

    python3 tests/realworld_tile/corpus/run_vs_cutile.py --pykc PYKC [--time] [--json OUT] [FILTER ...]
    python3 tests/realworld_tile/corpus/run_vs_cutile.py --dry-run [--cutile-path DIR] [FILTER ...]

Inputs are generic PyTorch tensors built from the manifest's parameter types: every array
of rank r gets the same extents, 2T per dimension where T is the kernel's largest
power-of-two integer constant in [2, 65536] (its tile size, or a size; at least 64), the
leading dimensions halved while an array would hold more than 2^22 elements, so that tiles
are exercised whole and several per axis. A `.assume(shape_constant=, stride_constant=)`
array gets those extents and strides. Floats are uniform in [0.5, 1.5), integers in
[0, 16) (in range as gather/scatter indices), bools random; integer scalars 16, float
scalars 0.75, bool scalars True. Both builds get the same arguments, constants as cuTile's
users pass them (Python numbers, bools, tuples, dtypes, enum members); tuples of arrays
that cuTile refuses as tuples are passed to it as lists (its list parameters), to pykc as
tuples. The grid has 8 blocks for kernels that use only `ct.bid(0)` (themselves or in the
functions they call), (4, 4) for `ct.bid(1)`, (2, 2, 2) for `ct.bid(2)`, one block for
kernels that use none. A corpus.json kernel with `inputs` gets its caller's shapes, values
and grid instead (corpus_inputs.evaluate_tile: `let`, `grow`, `args` for the run-time
parameters, `grid`), where generic extents would not tile the kernel's arrays exactly
(cuTile pads a partial tile with undetermined values) or sizes and arrays must agree. Libraries that the host lacks are stood in for
module-level host code (../../realworld_numba/corpus/corpus_import.py). Kernels made inside
functions (`--kernel test_x.kernel`, corpus.json "defines") are defined again for cuTile
from their `def`, in the module's namespace plus the defines and the enclosing functions'
assignments, imports and nested definitions.

Per kernel (corpus.json entry) the verdict is:

  same           every array argument holds cuTile's bytes after the launch
  close          float outputs within a tolerance for their dtype (rtol/atol: float64
                 1e-9/1e-12, float32 1e-4/1e-5, float16 1e-2/1e-3, bfloat16 2e-2/1e-2,
                 float8 0.25/0.05, float8_e8m0fnu 1.0/0; atol scaled by the largest
                 |value|), or for the precision the kernel computes in where that is lower
                 (float16/bfloat16 array arguments, tfloat32 casts in its file: 2e-3/1e-3):
                 operation order, fma, approximations; also where cuTile's own two runs
                 differ (float atomics) and pykc's output is within that tolerance
  differs        a mismatch beyond that, where cuTile agrees with itself on a second run
  cutile-varies  cuTile's own two runs differ (atomics, races) and pykc's output is not
                 within tolerance of the first (integers in a racing order): not counted
                 as a mismatch
  skipped        no generic inputs (dataclasses, lists), the kernel object not found, or no
                 manifest entry matches the signature; the reason is recorded
  fault          the launch faulted through cuTile (the inputs do not suit the kernel)
  cutile-fails   cuTile refuses the kernel (its compile error is recorded)
  as-asserted    cuTile refuses the kernel (its release predates the test, or not on this
                 GPU), and pykc's outputs are the values the test asserts (corpus.json
                 inputs' `expect`) or those of its PyTorch reference (`reference`: an
                 expression per output over the inputs a0, a1, ..., compared within
                 `reference_tolerance`, rtol and atol, 1e-2 each by default)
  pykc-error     cuTile ran, pykc's launch raised (argument checks; pykc-fault: a fault)
  not-compiled   pykc did not compile this kernel (its first error is recorded)
  crash, timeout the process died on this kernel, or it ran past --kernel-timeout
  not-run        the --time-limit (or --file-timeout) came first

A fault spoils the CUDA context: each file runs in its own process and, after a fault or
crash, a fresh process goes on with the file's next kernel. With --time, each kernel that
matched (same, close) is timed afterwards, one kernel at a time (the files' processes start
in parallel and take turns on a lock): cuTile's and pykc's launches on the same tensors
behind a busy kernel (kernel_timing.py's rounds: GPU time per kernel, not Python's launch
cost, best of 5), the extents grown 2x per dimension (4x for 1-D; the grid as well) until
cuTile's kernel takes 0.2 ms or an array would pass 2^24 elements; the ratio cuTile_time /
pykc_time per kernel and its geomean are printed (>= 1.0: pykc as fast).

--dry-run needs no GPU: it compiles with pykc, plans every kernel's inputs, grid and
cuTile call, imports each file with cuTile where `cuda.tile` imports (--cutile-path adds a
folder holding it, e.g. `pip install --target DIR cuda-tile==1.7.0`), finds each kernel
object and runs cuTile's front end on the planned signature (`export_kernel` to TileIR
bytecode; no tileiras, no GPU), reporting what would run and what cuTile would refuse.

Exit status: 1 when a kernel differs, or pykc errs where cuTile runs; 77 without a GPU
(not --dry-run); 0 otherwise. Python 3.10+; the GPU run needs torch and cuda.tile.
"""
from __future__ import annotations

import argparse
import ast
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
NUMBA_CORPUS = os.path.join(ROOT, "tests", "realworld_numba", "corpus")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, NUMBA_CORPUS)
sys.path.insert(0, HERE)

from run_corpus import ERROR_RE, define_groups, kernel_flags, normalise, signal_name  # noqa: E402
from sig_text import sig_params, split_top  # noqa: E402
from corpus_tensors import (TOLERANCE, clone, compare, compute_dtypes, given_value,  # noqa: E402,F401
                            make_array, tensors, torch_constructors)

CAP_ELEMENTS, TIME_CAP_ELEMENTS = 1 << 22, 1 << 24
DEFAULT_TILE, MAX_TILE = 64, 1 << 16
GRIDS = {0: (1,), 1: (8,), 2: (4, 4), 3: (2, 2, 2)}
INT_SCALAR, FLOAT_SCALAR = 16, 0.75
TARGET_MS = 0.2
SEED = 20261207
MATCHED = ("same", "close")
# A file matches when each of its kernels does, or gives the values its test asserts where
# cuTile refuses it (issue 22's bar counts files).
FILE_MATCHED = MATCHED + ("as-asserted",)
BAD = ("differs", "pykc-error", "pykc-fault")
FAULT_RE = re.compile(r"CUDA_ERROR|CUDA error|cudaError|illegal (memory )?(address|instruction)|"
                      r"misaligned address|unspecified launch failure|device-side assert|"
                      r"CUresult\.|CUDA_EXCEPTION", re.I)


# ------------------------------------------------------------------ signatures and manifests

_ARRAY_RE = re.compile(r"^(\w+)\[(.*?)\](?:\.assume\((.*)\))?$")


def parse_type(text: str):
    """A canonical tree for one `--sig` type: ("scalar", dtype), ("array", dtype, ndim,
    layout, shape_constant, stride_constant), ("tuple", (items...)), or ("other", text) for
    what generic inputs cannot give (dataclasses, lists, records)."""
    t = text.strip()
    m = re.match(r"^(UniTuple|Tuple)\((.*)\)$", t, re.S)
    if m:
        parts = split_top(m.group(2))
        if m.group(1) == "UniTuple" and len(parts) == 2 and parts[1].strip().isdigit():
            return ("tuple", (parse_type(parts[0]),) * int(parts[1]))
        if m.group(1) == "Tuple" and len(parts) == 1 and parts[0].startswith("("):
            parts = split_top(parts[0][1:-1])  # Tuple((a, b)) spelling
        return ("tuple", tuple(parse_type(p) for p in parts))
    m = _ARRAY_RE.match(t.replace(" ", ""))
    if m:
        dtype = _dtype_name(m.group(1))
        dims = m.group(2)
        if dims in ("()", ""):
            ndim, layout = 0, "C"
        else:
            ds = dims.split(",")
            ndim = len(ds)
            layout = "C" if ds[-1] == "::1" else ("F" if ds[0] == "::1" else "A")
        shape_c = stride_c = ()
        if m.group(3):
            call = ast.parse("f(" + m.group(3) + ")", mode="eval").body
            for kw in call.keywords:
                v = tuple(ast.literal_eval(kw.value))
                if kw.arg == "shape_constant":
                    shape_c = v
                elif kw.arg == "stride_constant":
                    stride_c = v
        return ("array", dtype, ndim, _layout(ndim, layout), shape_c, stride_c)
    if re.fullmatch(r"\w+", t) and t[0].islower():
        return ("scalar", _dtype_name(t))
    return ("other", t)


def _dtype_name(name: str) -> str:
    return "bool" if name in ("bool_", "boolean", "b1") else name


def _layout(ndim: int, layout: str) -> str:
    return "C" if ndim <= 1 and layout in ("C", "F") else layout


def param_tree(p):
    """parse_type's tree for a manifest parameter (pykc._manifest.Param)."""
    if p.kind == "scalar":
        return ("scalar", _dtype_name(p.dtype))
    if p.kind == "tuple":
        return ("tuple", tuple(param_tree(e) for e in p.elements))
    if p.dtype == "record":
        return ("other", "record")
    return ("array", _dtype_name(p.dtype), p.ndim, _layout(p.ndim, p.layout),
            tuple(p.shape_constant), tuple(p.stride_constant))


def const_text_value(text: str):
    """A `--const` value as a Python literal, or the text itself (a name: evaluated in the
    module's namespace for cuTile)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _tuples(v):
    """JSON's lists as the tuples they were."""
    return tuple(_tuples(x) for x in v) if isinstance(v, (list, tuple)) else v


def _same_value(manifest_value, text: str) -> bool:
    """Whether the manifest's constant is corpus.json's `--const` value. Only numbers and
    bools are compared: the manifest writes others its own way (None and strings as 0.0
    in pykc 0.1.0)."""
    v = const_text_value(text)
    if not isinstance(v, (bool, int, float)):
        return True
    manifest_value = _tuples(manifest_value)
    if isinstance(v, bool) or isinstance(manifest_value, bool):
        return isinstance(manifest_value, (bool, int)) and bool(v) == bool(manifest_value)
    try:
        return float(manifest_value) == float(v)
    except (TypeError, ValueError):
        return False


def match_entry(manifest, kernel: dict):
    """The manifest entry (pykc._manifest.KernelEntry) compiled for corpus kernel `kernel`,
    or (None, why)."""
    name = kernel["name"]
    entries = [e for e in manifest.kernels if e.name == name and e.tile]
    if not entries:
        return None, f"no tile kernel {name} in the manifest"
    consts = {}
    for c in kernel.get("consts", []):
        n, _, v = c.partition("=")
        consts[n.strip()] = v.strip()
    want = tuple(parse_type(t) for t in sig_params(kernel.get("sig", "")))
    by_consts = []
    for e in entries:
        have = {c[0]: c[2] for c in e.tile["constants"]}
        if all(n in have and _same_value(have[n], v) for n, v in consts.items()):
            by_consts.append(e)
    if not by_consts:
        return None, "no specialisation with these constants in the manifest"
    exact = [e for e in by_consts if tuple(param_tree(p) for p in e.params) == want]
    if exact:
        return exact[0], ""
    if len(by_consts) == 1:
        return by_consts[0], ""
    return None, "no manifest entry matches the signature " + kernel.get("sig", "")


# ------------------------------------------------------------------ plans (pure Python)

def kernel_source(text: str, qualname: str):
    """The ast.FunctionDef of `qualname` (`f`, `outer.inner`, `Class.method.inner`) in a
    file's source, and the chain of enclosing function and class definitions; (None, chain)
    when not found."""
    scope, chain = ast.parse(text).body, []
    parts = qualname.split(".")
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for i, part in enumerate(parts):
        nodes = scope if i == 0 else list(ast.walk(ast.Module(scope, [])))
        found = next((n for n in nodes if isinstance(n, defs) and n.name == part), None)
        if found is None:
            return None, chain
        if i == len(parts) - 1:
            return (found, chain) if not isinstance(found, ast.ClassDef) else (None, chain)
        chain.append(found)
        scope = found.body
    return None, chain


_BID_RE = re.compile(r"\b(?:bid|num_blocks)\(\s*([012])\s*\)")


def grid_rank(node, file_text: str) -> int:
    """The grid's rank: the highest axis of `ct.bid(k)`/`ct.num_blocks(k)` in the kernel
    `node` (an ast.FunctionDef; None: the whole file) or the module functions it calls,
    directly or not, plus one; 0 when none does (the kernel works on fixed elements: one
    block, as cuTile's tests launch it, keeps in-place updates free of races)."""
    if node is None:
        axes = [int(a) for a in _BID_RE.findall(file_text)]
        return max(axes, default=0) + 1
    functions = {n.name: n for n in ast.parse(file_text).body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    seen, todo, axes = set(), [node], []
    while todo:
        f = todo.pop()
        axes += [int(a) for a in _BID_RE.findall(ast.unparse(f))]
        for c in ast.walk(f):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in functions \
                    and c.func.id not in seen:
                seen.add(c.func.id)
                todo.append(functions[c.func.id])
    return max(axes) + 1 if axes else 0


def tile_size(entry) -> int:
    """The kernel's largest power-of-two integer constant in [2, MAX_TILE] (its tile size),
    at least DEFAULT_TILE."""
    vals = [c[2] for c in entry.tile["constants"]
            if isinstance(c[2], int) and not isinstance(c[2], bool)]
    tiles = [v for v in vals if 2 <= v <= MAX_TILE and v & (v - 1) == 0]
    return max(tiles + [DEFAULT_TILE])


def extents(rank: int, tile: int, cap: int = CAP_ELEMENTS) -> list[int]:
    """2 * tile per dimension, leading dimensions halved (to 2) while over `cap` elements."""
    dims = [2 * tile] * rank
    i = 0
    while math.prod(dims) > cap and i < rank:
        if dims[i] > 2:
            dims[i] //= 2
        else:
            i += 1
    return dims


def _c_strides(shape):
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= max(d, 1)
    return list(reversed(out))


def array_spec(tree, tile: int, scale: int = 0) -> dict:
    """The plan of one array argument; `scale`: growth steps for --time (each 2x a
    dimension, 4x for 1-D)."""
    _, dtype, ndim, layout, shape_c, stride_c = tree
    dims = extents(ndim, tile)
    for _ in range(scale):
        dims = [d * (4 if ndim == 1 else 2) for d in dims]
    if shape_c:
        dims = [c if c is not None else d for c, d in zip(shape_c, dims)]
    spec = {"kind": "array", "dtype": dtype, "shape": dims, "layout": layout}
    if shape_c:
        spec["shape_constant"] = list(shape_c)
    if stride_c:
        strides = _c_strides(dims) if layout != "F" else list(reversed(_c_strides(dims[::-1])))
        spec["strides"] = [c if c is not None else s for c, s in zip(stride_c, strides)]
    return spec


def value_spec(tree, tile: int, scale: int = 0) -> dict | None:
    kind = tree[0]
    if kind == "array":
        return array_spec(tree, tile, scale)
    if kind == "scalar":
        dt = tree[1]
        v = True if dt == "bool" else (FLOAT_SCALAR if dt.startswith(("float", "bfloat")) else INT_SCALAR)
        return {"kind": "scalar", "dtype": dt, "value": v}
    if kind == "tuple":
        items = [value_spec(t, tile, scale) for t in tree[1]]
        if any(i is None for i in items):
            return None
        spec = {"kind": "tuple", "items": items}
        if items and all(t[0] == "array" for t in tree[1]) and len(set(tree[1])) == 1:
            # cuTile's users pass a list here when the kernel indexes it at run time
            spec["arrays"] = True
        return spec
    return None


def _set_element(spec: dict, path, const: dict) -> bool:
    for i in path[:-1]:
        if spec.get("kind") != "tuple" or i >= len(spec["items"]):
            return False
        spec = spec["items"][i]
    if spec.get("kind") != "tuple" or path[-1] >= len(spec["items"]):
        return False
    spec["items"][path[-1]] = const
    return True


def plan_kernel(kernel: dict, entry, file_text: str, scale: int = 0) -> dict:
    """Inputs, constants and grid of one corpus kernel: {"args": [spec...], "grid": [...],
    "tile": T} or {"skip": why}. Constant specs hold the manifest's value ("pykc") and the
    corpus.json text ("text": names such as `ct.float32` are evaluated for the launch)."""
    texts = {}
    for c in kernel.get("consts", []):
        n, _, v = c.partition("=")
        texts[n.strip()] = v.strip()
    for p in sig_params(kernel.get("sig", "")):
        if parse_type(p)[0] == "other":
            return {"skip": f"argument {p} (a dataclass, list or record: no generic input)"}
    tile = tile_size(entry)
    runtime, given_grid = [], None
    if kernel.get("inputs") is not None:
        try:
            runtime, given_grid = input_specs(kernel["inputs"], entry, scale)
        except (ValueError, TypeError, NameError, SyntaxError) as e:
            return {"skip": f"corpus.json inputs: {type(e).__name__}: {e}"}
    for p in entry.params if given_grid is None else []:
        spec = value_spec(param_tree(p), tile, scale)
        if spec is None:
            return {"skip": f"parameter {p.name}: {p.type_str()} (no generic input)"}
        runtime.append(spec)
    consts = entry.tile["constants"]
    positions = {pos: c for c in consts for pos in [c[1]] if not c[3]}
    args, it = [], iter(runtime)
    for i in range(len(entry.params) + len(positions)):
        if i in positions:
            name, _, value, _ = positions[i]
            args.append({"kind": "const", "name": name, "pykc": value, "text": texts.get(name)})
        else:
            args.append(next(it))
    for name, pos, value, path in consts:
        if path and not _set_element(args[pos], path, {"kind": "const", "name": name,
                                                        "pykc": value, "text": texts.get(name)}):
            return {"skip": f"constant element {name} does not fit its tuple"}
    if given_grid is not None:
        return {"args": args, "grid": list(given_grid), "tile": tile, "inputs": kernel["inputs"],
                "input_scale": 2 ** scale, "grid_rank": len(given_grid) if kernel["inputs"].get("grow") else 0}
    node, _ = kernel_source(file_text, kernel["name"])
    rank = grid_rank(node, file_text)
    grid = list(GRIDS[rank])
    if scale and rank:
        grid = [g * (4 if len(grid) == 1 else 2) ** scale for g in grid]
    return {"args": args, "grid": grid, "tile": tile, "grid_rank": rank}


def input_specs(inputs: dict, entry, scale: int):
    """The run-time arguments' specs and the grid of a kernel whose corpus.json entry gives
    its caller's `inputs` (corpus_inputs.evaluate_tile: shapes planned here, values drawn in
    the child): kind "input", the value's index, the manifest's dtype and layout, the
    shape (arrays) or value (scalars). `scale` steps double the `grow` names."""
    from corpus_inputs import evaluate_tile
    values, grid = evaluate_tile(inputs, len(entry.params), None, 2 ** scale)
    specs = []
    for i, (p, v) in enumerate(zip(entry.params, values)):
        tree = param_tree(p)
        if tree[0] == "array":
            _, dtype, ndim, layout, _, _ = tree
            if getattr(v, "ndim", None) != ndim:
                raise ValueError(f"argument {i} ({p.name}) must be a {ndim}-d array")
            specs.append({"kind": "input", "i": i, "dtype": dtype, "layout": layout, "shape": list(v.shape)})
        elif tree[0] == "scalar" and (isinstance(v, (int, float, bool)) or getattr(v, "ndim", 1) == 0):
            specs.append({"kind": "input", "i": i, "dtype": tree[1], "value": _scalar(v, tree[1])})
        else:
            raise ValueError(f"argument {i} ({p.name}): inputs give arrays and numbers only")
    return specs, grid


def _scalar(v, dtype: str):
    if dtype == "bool":
        return bool(v)
    return float(v) if dtype.startswith(("float", "bfloat")) else int(v)


def plan_elements(plan: dict) -> int:
    def walk(s):
        if "shape" in s:
            yield math.prod(s["shape"])
        elif s["kind"] == "tuple":
            for i in s["items"]:
                yield from walk(i)
    return max((n for a in plan.get("args", []) for n in walk(a)), default=0)


def describe_plan(plan: dict) -> str:
    def one(s):
        if "shape" in s:
            st = f" strides {tuple(s['strides'])}" if "strides" in s else ""
            return f"{s['dtype']}{list(s['shape'])}{'' if s['layout'] == 'C' else s['layout']}{st}"
        if s["kind"] in ("scalar", "input"):
            return repr(s["value"])
        if s["kind"] == "tuple":
            return "(" + ", ".join(one(i) for i in s["items"]) + ")"
        return f"{s['name']}=" + (s["text"] if s.get("text") is not None else repr(s["pykc"]))
    return f"grid {tuple(plan['grid'])}: " + ", ".join(one(a) for a in plan["args"])


# ------------------------------------------------------------------ pykc's build (parent)

def compile_file(entry: dict, pykc: str, arch: str, out: str, timeout: float,
                 deadline: float = float("inf")) -> dict:
    """pykc's CLI on the file, one compile per group of -D values (as run_corpus.py); a
    failing group is compiled kernel by kernel. Each compile ends by `timeout` seconds and
    by `deadline` (time.monotonic()). Returns {kernel index: output folder or "error: ..."}."""
    file = os.path.join(HERE, entry["file"])
    kernels = entry.get("kernels", [])
    result = {}

    def run(ks, folder):
        cmd = [pykc, "compile", file, "--arch", arch, "-o", folder] + kernel_flags(ks)
        limit = min(timeout, deadline - time.monotonic())
        if limit <= 0:
            return "error: not compiled (time limit)"
        try:
            p = subprocess.run(cmd, cwd=os.path.dirname(file), capture_output=True, text=True,
                               errors="replace", timeout=limit)
        except subprocess.TimeoutExpired:
            return f"error: pykc compile timed out after {limit:.0f} s"
        if p.returncode < 0 or (p.returncode >= 128 and not ERROR_RE.search(p.stderr)):
            return f"error: pykc crashed ({signal_name(p.returncode)})"
        if p.returncode != 0:
            err = [ln for ln in (p.stderr + p.stdout).splitlines() if "error" in ln]
            why = err[0].replace(HERE + os.sep, "") if err else f"pykc exit {p.returncode}"
            return "error: " + why[:300]
        return folder

    for g, group in enumerate(define_groups(kernels)):
        folder = os.path.join(out, f"g{g}")
        r = run(group, folder)
        names = list(dict.fromkeys(k["name"] for k in group))
        if r.startswith("error") and len(names) > 1:
            for j, n in enumerate(names):
                ks = [k for k in group if k["name"] == n]
                rk = run(ks, os.path.join(out, f"g{g}k{j}"))
                for k in ks:
                    result[kernels.index(k)] = rk
        else:
            for k in group:
                result[kernels.index(k)] = r
    # identical entries (the same dict twice) map by position
    for i, k in enumerate(kernels):
        if i not in result:
            result[i] = result.get(kernels.index(k), "error: not compiled")
    return result


_MANIFEST_LOCK = threading.Lock()


def read_manifest(path: str):
    """pykc's manifest reader (pykc/_manifest.py, pure Python) without importing the
    package, whose loader needs NumPy: the parent and --dry-run do without."""
    if "pykc._manifest" in sys.modules:
        return sys.modules["pykc._manifest"].read_manifest(path)
    with _MANIFEST_LOCK:  # --jobs threads
        mod = sys.modules.get("_pykc_manifest")
        if mod is None:
            import importlib.util
            spec = importlib.util.spec_from_file_location(
                "_pykc_manifest", os.path.join(ROOT, "python", "pykc", "_manifest.py"))
            mod = importlib.util.module_from_spec(spec)
            sys.modules["_pykc_manifest"] = mod  # (its dataclasses look themselves up there)
            spec.loader.exec_module(mod)
    return mod.read_manifest(path)


def plan_file(entry: dict, built: dict) -> list[dict]:
    """One row per corpus kernel: its plan (or why it is skipped or not compiled)."""
    text = open(os.path.join(HERE, entry["file"]), encoding="utf-8", errors="replace").read()
    rows, manifests = [], {}
    for i, k in enumerate(entry.get("kernels", [])):
        row = {"index": i, "kernel": k["name"], "name": k["name"], "sig": k.get("sig", ""),
               "consts": k.get("consts", []), "defines": k.get("defines", [])}
        if k.get("inputs") is not None:  # the caller's inputs: the timing rounds plan from them too
            row["inputs"] = k["inputs"]
        rows.append(row)
        where = built.get(i, "error: not compiled")
        if where.startswith("error"):
            row.update(verdict="not-compiled", why=where[len("error: "):])
            continue
        try:
            m = manifests.get(where) or manifests.setdefault(where, read_manifest(where))
            e, why = match_entry(m, k)
        except Exception as ex:  # noqa: BLE001 - a manifest the loader refuses
            e, why = None, f"manifest: {type(ex).__name__}: {ex}"
        if e is None:
            row.update(verdict="skipped", why=why)
            continue
        plan = plan_kernel(k, e, text)
        if "skip" in plan:
            row.update(verdict="skipped", why=plan["skip"])
            continue
        plan["tf32"] = "tfloat32" in text  # (products at tfloat32 precision: compare's tolerance)
        row.update(build=where, symbol=e.symbol, plan=plan, launch=describe_plan(plan))
    return rows


# ------------------------------------------------------------------ cuTile's side (child)

def import_cutile_module(entry: dict):
    """The corpus file imported with the real cuda.tile (stand-ins for what is absent)."""
    import cuda.tile  # noqa: F401  (cuTile's own imports happen without stand-ins)
    from corpus_import import import_corpus_file
    return import_corpus_file(os.path.join(HERE, entry["file"]),
                              os.path.join(HERE, entry["file"].split("/")[0]),
                              [os.path.join(HERE, p) for p in entry.get("python_path", [])],
                              keep=("cuda",))


def _eval(text: str, ns: dict):
    v = const_text_value(text)
    if isinstance(v, str) and v == text:
        return eval(text, ns)  # noqa: S307 - corpus.json is ours
    return v


def find_kernel(mod, kernel: dict, file_text: str):
    """cuTile's kernel object for a corpus kernel: the module's, or (a qualified name, or
    defines given) its `def` executed again in the module's namespace plus corpus.json's
    defines and the enclosing functions' assignments, imports and nested definitions.
    Raises LookupError."""
    import cuda.tile as ct
    from cuda.tile._execution import kernel as kernel_type
    name, defines = kernel["name"], kernel.get("defines", [])
    obj = getattr(mod, name, None) if "." not in name and not defines else None
    if obj is None:
        node, chain = kernel_source(file_text, name)
        if node is None:
            raise LookupError(f"no `def {name.split('.')[-1]}` found for {name}")
        ns = dict(mod.__dict__)
        define_names = {d.split("=", 1)[0].strip() for d in defines}
        for outer in chain:
            if isinstance(outer, ast.ClassDef):
                continue  # a class body's names are not the methods' closures
            for stmt in outer.body:
                if stmt is node or (isinstance(stmt, ast.FunctionDef) and stmt.name == node.name):
                    break
                targets = [t.id for s in [stmt] if isinstance(s, (ast.Assign, ast.AnnAssign))
                           for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
                           if isinstance(t, ast.Name)]
                # imports, and helpers and classes the kernel may call
                other = isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef))
                if not other and (not targets or set(targets) & define_names):
                    continue
                try:
                    exec(compile(ast.Module([stmt], []), mod.__file__, "exec"), ns)  # noqa: S102
                except Exception:  # noqa: BLE001 - host code the kernel may not need
                    pass
        for d in defines:
            k, v = d.split("=", 1)
            ns[k.strip()] = _eval(v.strip(), ns)
        exec(compile(ast.Module([node], []), mod.__file__, "exec"), ns)  # noqa: S102
        obj = ns[node.name]
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if not isinstance(obj, kernel_type):
        if callable(obj):
            obj = ct.kernel(obj)
        else:
            raise LookupError(f"{name} is a {type(obj).__name__}, not a kernel")
    return obj


def cutile_const(spec: dict, ns: dict):
    """A constant as cuTile's user passes it: corpus.json's text (a literal, or a name such
    as `ct.float32` or `MyEnum.FOO` evaluated in the module's namespace), a bool where the
    manifest has one (`CAUSAL=0` for a Constant[bool]); the manifest's value for constants
    left to their defaults."""
    m = _tuples(spec["pykc"])
    if spec.get("text") is None:
        return spec["default"] if "has_default" in spec else m
    v = _eval(spec["text"], ns)
    return bool(v) if isinstance(m, bool) and isinstance(v, int) else v


def fill_defaults(plan: dict, kobj) -> None:
    """Constants that corpus.json leaves to their defaults: the Python default (the
    manifest cannot spell None or strings)."""
    import inspect
    try:
        params = inspect.signature(kobj._annotated_function.pyfunc).parameters
    except (AttributeError, TypeError, ValueError):
        return
    for a in plan["args"]:
        if a["kind"] == "const" and a.get("text") is None and a["name"] in params:
            d = params[a["name"]].default
            if d is not inspect.Parameter.empty:
                a["default"], a["has_default"] = d, True


def cutile_signature(plan: dict, ns: dict, lists: bool = False):
    """cuTile's KernelSignature for a plan (--dry-run's front-end check)."""
    import cuda.tile as ct
    from cuda.tile import compilation as cc

    def one(s):
        if s["kind"] == "const":
            return cc.ConstantConstraint(cutile_const(s, ns))
        if s["kind"] == "scalar" or "value" in s:
            return cc.ScalarConstraint(_ct_dtype(ct, s["dtype"]))
        if s["kind"] == "tuple":
            if lists and s.get("arrays"):
                return cc.ListConstraint(one(s["items"][0]), alias_groups=(), elements_may_alias=False)
            return cc.TupleConstraint([one(i) for i in s["items"]])
        nd = len(s["shape"])
        if "strides" in s:
            stride_c = tuple(s["strides"])
        elif s["layout"] == "C" and nd:
            stride_c = (None,) * (nd - 1) + (1,)
        elif s["layout"] == "F" and nd:
            stride_c = (1,) + (None,) * (nd - 1)
        else:
            stride_c = None
        extra = {}
        if s.get("shape_constant"):
            extra["shape_constant"] = tuple(s["shape_constant"])
        return cc.ArrayConstraint(_ct_dtype(ct, s["dtype"]), nd, index_dtype=ct.int32,
                                  stride_lower_bound_incl=0, alias_groups=(),
                                  may_alias_internally=False, stride_constant=stride_c, **extra)
    params = [one(a) for a in plan["args"]]
    # v2: tuples, shape constants (what ct.launch picks for such arguments)
    conv = cc.CallingConvention.cutile_python_v2()
    return cc.KernelSignature(params, conv)


def _ct_dtype(ct, name: str):
    return ct.bool_ if name == "bool" else getattr(ct, name)


def frontend_check(kobj, plan: dict, ns: dict) -> str:
    """cuTile's front end (typing, lowering to TileIR bytecode) on the plan: "ok" (or "ok
    with lists": tuples of arrays passed as lists, see as_lists) or the first lines of
    its error."""
    import io
    from cuda.tile.compilation import export_kernel
    err = ""
    for lists in (False, True) if has_array_tuples(plan) else (False,):
        try:
            sig = cutile_signature(plan, ns, lists)
        except Exception as e:  # noqa: BLE001 - ct.launch takes more than KernelSignature
            return f"not checked (KernelSignature: {type(e).__name__}: {_first_lines(str(e), 1)})"
        try:
            # TileIR bytecode 13.4: what the tileiras packed with cuTile 1.7 reads
            export_kernel(kobj, [sig], io.BytesIO(),
                          output_format="tileir_bytecode", bytecode_version="13.4")
            return "ok with lists" if lists else "ok"
        except Exception as e:  # noqa: BLE001 - what cuTile says is the result
            err = err or f"{type(e).__name__}: {_first_lines(str(e))}"
    return err


def has_array_tuples(plan: dict) -> bool:
    return any(a["kind"] == "tuple" and a.get("arrays") for a in plan["args"])


def _first_lines(msg: str, n: int = 3, width: int = 400) -> str:
    return " | ".join(ln.rstrip() for ln in msg.strip().splitlines()[:n])[:width]


# ------------------------------------------------------------------ tensors (child, GPU)

def make_args(plan: dict, gen, torch, ns: dict) -> list:
    """The launch arguments of a plan: corpus.json's `inputs` where the plan has them,
    generic tensors otherwise; random values from `gen`, on the GPU."""
    given = None
    if "inputs" in plan:
        from corpus_inputs import evaluate_tile
        n = sum(1 for a in plan["args"] if a["kind"] == "input")
        given, _ = evaluate_tile(plan["inputs"], n, torch_constructors(torch, gen), plan["input_scale"])
    return [make_value(a, gen, torch, ns, given) for a in plan["args"]]


def make_value(spec: dict, gen, torch, ns: dict, given=None):
    """A tensor, number, tuple or constant from a plan spec (torch tensors on the GPU).
    Both builds get the same values: constants as cuTile's user writes them."""
    kind = spec["kind"]
    if kind == "input":
        return given_value(spec, given[spec["i"]], torch)
    if kind == "const":
        return cutile_const(spec, ns)
    if kind == "scalar":
        return spec["value"]
    if kind == "tuple":
        return tuple(make_value(i, gen, torch, ns) for i in spec["items"])
    return make_array(spec, gen, torch)


def as_lists(args: list, plan: dict) -> list:
    """cuTile's arguments with the tuples of arrays as lists (ct.launch's list parameters,
    which kernels index at run time: TileGym's group GEMM). pykc takes them as tuples."""
    return [list(v) if a["kind"] == "tuple" and a.get("arrays") else v
            for v, a in zip(args, plan["args"])]


# ------------------------------------------------------------------ one file (child)

def _emit(obj):
    print(json.dumps(obj), flush=True)


def child_main(spec_path: str) -> int:
    """Runs the rows of one file (spec written by the parent), a JSON line per event:
    {"start": i} before kernel i, then its row; a fault ends the process (exit 3)."""
    spec = json.load(open(spec_path, encoding="utf-8"))
    for p in spec.get("cutile_path", []):
        sys.path.insert(0, p)
    entry, rows, mode = spec["entry"], spec["rows"], spec["mode"]
    text = open(os.path.join(HERE, entry["file"]), encoding="utf-8", errors="replace").read()
    if mode == "dry":
        dtype_stand_ins()
    try:
        mod, stood_in = import_cutile_module(entry)
        _emit({"file_info": {"stand_ins": stood_in, "skipped_statements": mod.__skipped__}})
    except Exception as e:  # noqa: BLE001
        msg = f"cuTile import: {type(e).__name__}: {_first_lines(str(e), 2)}"
        for r in rows:
            _emit({"start": r["index"]})
            _emit({"index": r["index"], "verdict": "skipped", "why": msg})
        return 0
    if mode != "dry":
        import torch
        import pykc as pk
        gpu = {"torch": torch, "pk": pk, "modules": {}, "timer": None}
        if mode == "time":
            return time_child(rows, mod, text, gpu, spec.get("lock"))
    # tests: "hang:I,crash:J" makes kernel I hang and kernel J crash its process
    hooks = os.environ.get("PYKC_VSCUTILE_TEST_HOOK", "").split(",")
    for r in rows:
        _emit({"start": r["index"]})
        out = {"index": r["index"]}
        if f"hang:{r['index']}" in hooks:
            time.sleep(3600)
        if f"crash:{r['index']}" in hooks:
            os.abort()
        try:
            k = find_kernel(mod, r, text)
            fill_defaults(r["plan"], k)
        except Exception as e:  # noqa: BLE001
            _emit({**out, "verdict": "skipped",
                   "why": f"cuTile kernel: {type(e).__name__}: {_first_lines(str(e), 2)}"})
            continue
        ns = k._annotated_function.pyfunc.__globals__ if hasattr(k, "_annotated_function") else mod.__dict__
        if mode == "dry":
            out["verdict"] = "planned"
            out["cutile_frontend"] = frontend_check(k, r["plan"], ns) if spec.get("check", True) else "not run"
            _emit(out)
            continue
        try:
            m = gpu["modules"].get(r["build"]) or gpu["modules"].setdefault(r["build"], gpu["pk"].load(r["build"]))
            mine = m[r["kernel"]]
        except Exception as e:  # noqa: BLE001
            _emit({**out, "verdict": "pykc-error", "why": f"load: {type(e).__name__}: {_first_lines(str(e), 2)}"})
            continue
        out.update(compare_one(gpu, k, mine, r, ns))
        _emit(out)
        if out.get("fault"):
            return 3
    return 0


def dtype_stand_ins() -> None:
    """--dry-run without PyTorch or NumPy: modules whose dtype names are cuTile's dtypes
    (a stand-in for the rest), so that `torch.float16` in a kernel or a define types."""
    import types
    import cuda.tile as ct
    from corpus_import import stand_in
    for lib in ("torch", "numpy"):
        try:
            __import__(lib)
            continue
        except ImportError:
            pass
        m = types.ModuleType(lib)
        m.__path__ = []
        m.__getattr__ = lambda name: stand_in(name)
        for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                     "float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2",
                     "float8_e8m0fnu"):
            if hasattr(ct, name):
                setattr(m, name, getattr(ct, name))
        m.bool = ct.bool_
        m.inf, m.nan, m.pi, m.e = math.inf, math.nan, math.pi, math.e
        m.half, m.float, m.double, m.int, m.long = ct.float16, ct.float32, ct.float64, ct.int32, ct.int64
        sys.modules[lib] = m


def _is_fault(e: Exception) -> bool:
    return bool(FAULT_RE.search(f"{type(e).__name__}: {e}"))


def compare_one(gpu: dict, k, mine, row: dict, ns: dict) -> dict:
    """One kernel launched twice through cuTile and once through pykc on copies of the same
    inputs: {"verdict", "why", "details"} (and "fault": True when the context is spoilt)."""
    import cuda.tile as ct
    torch, pk = gpu["torch"], gpu["pk"]
    plan = row["plan"]
    stream = torch.cuda.current_stream()
    try:
        gen = torch.Generator(device="cuda").manual_seed(SEED)
        base = make_args(plan, gen, torch, ns)
    except Exception as e:  # noqa: BLE001 - a dtype this PyTorch lacks, a constant's name
        return {"verdict": "skipped", "why": f"inputs: {type(e).__name__}: {_first_lines(str(e), 1)}",
                "fault": _is_fault(e)}
    grid = tuple(plan["grid"])
    lists, err = False, None
    for lists in (False, True) if has_array_tuples(plan) else (False,):
        theirs, again = clone(base, torch), clone(base, torch)
        if lists:
            theirs, again = as_lists(theirs, plan), as_lists(again, plan)
        torch.cuda.synchronize()
        try:
            ct.launch(stream, grid, k, tuple(theirs))
            torch.cuda.synchronize()
            ct.launch(stream, grid, k, tuple(again))
            torch.cuda.synchronize()
            err = None
            break
        except Exception as e:  # noqa: BLE001
            if _is_fault(e):
                return {"verdict": "fault", "why": f"cuTile: {type(e).__name__}: {_first_lines(str(e))}",
                        "fault": True}
            err = err or e
    if err is not None:
        refused = f"cuTile: {type(err).__name__}: {_first_lines(str(err))}"
        if plan.get("inputs", {}).get("expect") or plan.get("inputs", {}).get("reference"):
            return check_expected(pk, stream, grid, mine, base, plan, refused, torch)
        return {"verdict": "cutile-fails", "why": refused}
    ours, failed = launch_pykc(pk, stream, grid, mine, base, torch)
    if failed:
        return failed
    verdict, why, details = compare(ours, theirs, again, torch,
                                    compute_dtypes(base, torch, plan.get("tf32", False)))
    return {"verdict": verdict, "why": why, "details": details, "cutile_lists": lists}


def launch_pykc(pk, stream, grid, mine, base, torch):
    """(pykc's launch on a copy of `base`: the arguments after it, None) or (None, its
    pykc-error or pykc-fault row)."""
    ours = clone(base, torch)
    try:
        pk.launch(stream, grid, mine, tuple(ours))
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        fault = _is_fault(e)
        return None, {"verdict": "pykc-fault" if fault else "pykc-error",
                      "why": f"{type(e).__name__}: {_first_lines(str(e))}", "fault": fault}
    return ours, None


def check_expected(pk, stream, grid, mine, base, plan: dict, refused: str, torch) -> dict:
    """Where cuTile refuses a kernel whose test asserts its outputs: pykc's launch on the
    inputs against those values (`expect`) or its test's PyTorch reference computed from the
    inputs (`reference`): as-asserted, or differs."""
    import corpus_refs
    from corpus_inputs import expected_tile
    spec = plan["inputs"]
    inputs = [v for a, v in zip(plan["args"], base) if a["kind"] == "input"]
    env = {"torch": torch, "refs": corpus_refs, **{f"a{i}": v for i, v in enumerate(inputs)}}
    refs = {int(k): eval(e, env) for k, e in spec.get("reference", {}).items()}  # noqa: S307 - ours
    rtol, atol = spec.get("reference_tolerance", (1e-2, 1e-2))
    ours, failed = launch_pykc(pk, stream, grid, mine, base, torch)
    if failed:
        return failed
    runtime = [v for a, v in zip(plan["args"], ours) if a["kind"] == "input"]
    for k, (got, want) in enumerate(zip(runtime, expected_tile(spec, len(runtime)))):
        if want is None:
            continue
        got_list = got.tolist() if isinstance(got, torch.Tensor) else got
        if got_list != want:
            return {"verdict": "differs", "why": f"arg {k}: {got_list!r}, the test asserts {want!r} ({refused})"}
    for k, ref in refs.items():
        got = runtime[k].double()
        ok = torch.isclose(got, ref.double(), rtol=rtol, atol=atol, equal_nan=True)
        if not bool(ok.all()):
            return {"verdict": "differs", "why": f"arg {k}: {int((~ok).sum())} of {ok.numel()} differ from the "
                                                 f"test's reference (rtol {rtol}, atol {atol}; {refused})"}
    return {"verdict": "as-asserted", "why": refused}


# ------------------------------------------------------------------ --time (child)

def time_child(rows, mod, text: str, gpu: dict, lock: str | None) -> int:
    """--time's child: finds, loads and launches each kernel once (cuTile's compile, from
    its disk cache by now), then, holding the GPU lock that the other files' children wait
    on, times them one by one. Each row's result goes in its "time"."""
    import cuda.tile as ct
    torch, pk = gpu["torch"], gpu["pk"]
    ready = []
    for r in rows:
        _emit({"start": r["index"]})
        try:
            k = find_kernel(mod, r, text)
            ns = k._annotated_function.pyfunc.__globals__ if hasattr(k, "_annotated_function") else mod.__dict__
            m = gpu["modules"].get(r["build"]) or gpu["modules"].setdefault(r["build"], pk.load(r["build"]))
            mine = m[r["kernel"]]
            fill_defaults(r["plan"], k)
            gen = torch.Generator(device="cuda").manual_seed(SEED)
            args = make_args(r["plan"], gen, torch, ns)
            grid = tuple(r["plan"]["grid"])
            ct.launch(torch.cuda.current_stream(), grid, k,
                      tuple(as_lists(args, r["plan"]) if r.get("cutile_lists") else args))
            pk.launch(torch.cuda.current_stream(), grid, mine, tuple(args))
            torch.cuda.synchronize()
            del args
            ready.append((r, k, mine, ns))
        except Exception as e:  # noqa: BLE001
            _emit({"index": r["index"], "time": {"error": f"{type(e).__name__}: {_first_lines(str(e), 1, 200)}"}})
            if _is_fault(e):
                return 3
    with gpu_lock(lock):
        for r, k, mine, ns in ready:
            _emit({"start": r["index"]})
            out = {"index": r["index"], **time_one(gpu, k, mine, r, text, ns)}
            _emit(out)
            if out.get("fault"):
                return 3
    return 0


class gpu_lock:  # noqa: N801 - used as a context manager
    """An exclusive lock on `path` (fcntl) across the --time children: one times at a
    time. While waiting it says so every 5 s, which the parent takes as a sign of life."""

    def __init__(self, path):
        self.path, self.f = path, None

    def __enter__(self):
        if not self.path:
            return self
        import fcntl
        self.f = open(self.path, "a")
        said = time.monotonic()
        while True:
            try:
                fcntl.flock(self.f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except OSError:
                if time.monotonic() - said > 5:
                    _emit({"wait": 1})
                    said = time.monotonic()
                time.sleep(0.1)

    def __exit__(self, *exc):
        if self.f is not None:
            import fcntl
            fcntl.flock(self.f, fcntl.LOCK_UN)
            self.f.close()


class TorchTimer:
    """kernel_timing.py's rounds on PyTorch's current stream (cuTile's and pykc's launches
    go there); torch.cuda._sleep is the busy kernel."""

    def __init__(self, torch):
        from kernel_timing import EventTimer

        class _T(EventTimer):
            def __init__(self):
                self.stream, self.spin_n = torch.cuda.current_stream(), 1 << 18

            def _spin(self, n):
                torch.cuda._sleep(n * 4)

            def _events(self):
                return (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))

            def _elapsed_ms(self, start, end):
                return start.elapsed_time(end)
        self.t = _T()

    def best(self, launch, before=None):
        return self.t.best(launch, before)


def time_one(gpu: dict, k, mine, row: dict, file_text: str, ns: dict) -> dict:
    """{"time": {...}} for one matching kernel (or its error; "fault" when it faulted)."""
    torch = gpu["torch"]
    if gpu["timer"] is None:
        gpu["timer"] = TorchTimer(torch)
    try:
        return {"time": time_row(gpu["timer"], torch, k, mine, row, file_text, ns)}
    except Exception as e:  # noqa: BLE001
        return {"time": {"error": f"{type(e).__name__}: {_first_lines(str(e), 1, 200)}"},
                "fault": _is_fault(e)}


def time_row(timer, torch, kobj, mine, row, file_text, ns) -> dict:
    """Kernel times (ms) of cuTile's and pykc's builds at sizes grown until cuTile's takes
    TARGET_MS (or an array would pass TIME_CAP_ELEMENTS); both on the same tensors."""
    import cuda.tile as ct
    import pykc as pk
    entry = next(e for e in read_manifest(row["build"]).kernels if e.symbol == row["symbol"])
    scale = 0
    while True:
        plan = plan_kernel(row, entry, file_text, scale)
        gen = torch.Generator(device="cuda").manual_seed(SEED)
        fill_defaults(plan, kobj)
        pargs = make_args(plan, gen, torch, ns)
        args = tuple(as_lists(pargs, plan) if row.get("cutile_lists") else pargs)
        pargs = tuple(pargs)
        grid = tuple(plan["grid"])
        ct.launch(timer.t.stream, grid, kobj, args)  # compile outside the rounds
        pk.launch(timer.t.stream, grid, mine, pargs)
        torch.cuda.synchronize()
        # every round starts from the same inputs (kernels that update them in place)
        saved = [(t, t.clone()) for t in tensors(pargs, torch)]

        def restore(_stream, saved=saved):
            for t, c in saved:
                t.copy_(c)
        cutile_ms = timer.best(lambda s: ct.launch(s, grid, kobj, args), restore)
        bigger = plan_elements(plan_kernel(row, entry, file_text, scale + 1))
        # (a kernel that uses no ct.bid works on fixed elements: larger inputs change nothing)
        if (cutile_ms >= TARGET_MS or bigger > TIME_CAP_ELEMENTS or not plan_elements(plan)
                or not plan["grid_rank"]
                or any(g > 65535 for g in plan_kernel(row, entry, file_text, scale + 1)["grid"][1:])):
            break
        scale += 1
        del args, pargs
    pykc_ms = timer.best(lambda s: pk.launch(s, grid, mine, pargs), restore)
    cutile_ms = min(cutile_ms, timer.best(lambda s: ct.launch(s, grid, kobj, args), restore))
    return {"cutile_ms": cutile_ms, "pykc_ms": pykc_ms, "ratio": cutile_ms / pykc_ms,
            "elements": plan_elements(plan), "grid": list(grid), "scale": scale}


# ------------------------------------------------------------------ driver (parent)

def _stream_child(spec_path: str, kernel_timeout: float, file_deadline: float):
    """Runs a child on `spec_path`, yielding its JSON messages as they come; the child is
    killed when a kernel runs past `kernel_timeout` seconds or the file past
    `file_deadline` (time.monotonic()). Yields ("timeout", seconds) then, and finally
    ("exit", returncode, stderr tail)."""
    import queue
    import threading
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", spec_path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    lines: queue.Queue = queue.Queue()
    err_tail: list[str] = []
    threading.Thread(target=lambda: [lines.put(ln) for ln in p.stdout] + [lines.put(None)],
                     daemon=True).start()
    threading.Thread(target=lambda: [err_tail.append(ln) or err_tail.__delitem__(slice(0, -20))
                                     for ln in p.stderr], daemon=True).start()
    # the imports (cuTile's, the corpus file's) before the first kernel get a minute more
    kernel_deadline = time.monotonic() + kernel_timeout + 60
    while True:
        wait = min(kernel_deadline, file_deadline) - time.monotonic()
        try:
            line = lines.get(timeout=max(0.0, wait))
        except queue.Empty:
            p.kill()
            p.wait()
            yield ("timeout", kernel_timeout if kernel_deadline <= file_deadline else None)
            return
        if line is None:
            break
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict):
            if "start" in msg or "wait" in msg:
                kernel_deadline = time.monotonic() + kernel_timeout
            if "wait" not in msg:
                yield msg
    p.wait()
    time.sleep(0.05)  # let the stderr reader finish
    yield ("exit", p.returncode, "".join(err_tail))


def run_child(entry, rows, mode, opts, deadline) -> dict:
    """Runs `rows` of one file in child processes (a fresh one after a fault, crash or
    kernel timeout), updating the rows; returns what the children said of the file."""
    by_index = {r["index"]: r for r in rows}
    pending, info = list(rows), {}
    # (--time's children wait for the GPU lock: only the time limit ends them)
    file_deadline = deadline if mode == "time" else min(deadline, time.monotonic() + opts.file_timeout)

    def fail(r, verdict, why):
        if mode == "time":
            r["time"] = {"error": f"{verdict}: {why}"}
        else:
            r.update(verdict=verdict, why=why)

    while pending:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"entry": entry, "rows": pending, "mode": mode, "check": opts.check,
                       "cutile_path": opts.cutile_path, "lock": getattr(opts, "gpu_lock", None)}, f)
            spec = f.name
        started, done, ended = None, set(), None
        try:
            for msg in _stream_child(spec, opts.kernel_timeout, file_deadline):
                if isinstance(msg, tuple):
                    ended = msg
                elif "file_info" in msg:
                    info.update(msg["file_info"])
                elif "start" in msg:
                    started = msg["start"]
                elif "index" in msg and msg["index"] in by_index:
                    by_index[msg["index"]].update({k: v for k, v in msg.items() if k not in ("index", "fault")})
                    done.add(msg["index"])
        finally:
            os.unlink(spec)
        rest = [r for r in pending if r["index"] not in done]
        if ended and ended[0] == "timeout":
            if ended[1] is None:
                for r in rest:
                    fail(r, "not-run", "file timeout" if time.monotonic() < deadline else "time limit")
                rest = []
            elif started is not None and started not in done:
                fail(by_index[started], "timeout", f"no result within {ended[1]:.0f} s")
                rest = [r for r in rest if r["index"] != started]
            elif not done:
                for r in rest:
                    fail(r, "timeout", "the imports took too long (before the first kernel)")
                rest = []
        elif started is not None and started not in done:
            tail = (ended[2].strip().splitlines() if ended else [])[-1:] or [f"exit {ended and ended[1]}"]
            fail(by_index[started], "crash", tail[0][:300])
            rest = [r for r in rest if r["index"] != started]
        elif rest and not done:
            # the child died before any kernel (an import that crashed the interpreter)
            tail = " | ".join((ended[2].strip().splitlines() if ended else [])[-3:])
            for r in rest:
                fail(r, "crash", "child failed: " + tail[:300])
            rest = []
        if rest and time.monotonic() > deadline:
            for r in rest:
                fail(r, "not-run", "time limit")
            rest = []
        pending = rest
    return info


def process_file(i, entry, opts, deadline, workdir) -> dict:
    result = {"file": entry["file"], "kernels": []}
    if time.monotonic() > deadline:
        result["kernels"] = [{"index": j, "kernel": k["name"], "sig": k.get("sig", ""),
                              "verdict": "not-run", "why": "time limit"}
                             for j, k in enumerate(entry.get("kernels", []))]
        return result
    out = os.path.join(workdir, f"f{i}")
    t0 = time.monotonic()
    built = compile_file(entry, opts.pykc, opts.arch, out, opts.compile_timeout, deadline)
    result["compile_s"] = round(time.monotonic() - t0, 2)
    rows = plan_file(entry, built)
    result["kernels"] = rows
    runnable = [r for r in rows if "plan" in r and "verdict" not in r]
    if runnable:
        result.update(run_child(entry, runnable, "dry" if opts.dry_run else "compare", opts, deadline))
    return result


def print_file(r: dict, dry: bool) -> None:
    ks = r["kernels"]
    line = r.get("error") or ", ".join(f"{k['kernel']} {k.get('verdict', '?')}" for k in ks) or "no kernels"
    print(f"{r['file']}: {line}", flush=True)
    for k in ks:
        v = k.get("verdict")
        if dry and v == "planned":
            fe = k.get("cutile_frontend", "")
            print(f"    {k['kernel']}: {k.get('launch', '')}" + ("" if fe in ("ok", "ok with lists", "not run", "") else
                                                                 f"\n      cuTile front end: {fe}"))
        elif v not in MATCHED:
            print(f"    {k['kernel']}: {v}: {k.get('why', '')}")


def print_times(entry: dict, rows: list[dict]) -> None:
    for k in rows:
        t = k.get("time", {})
        if "ratio" in t:
            print(f"    {entry['file']} {k['kernel']}: cuTile {t['cutile_ms'] * 1e3:.1f} us, "
                  f"pykc {t['pykc_ms'] * 1e3:.1f} us: {t['ratio']:.2f}x "
                  f"({t['elements']} elements, grid {tuple(t['grid'])})", flush=True)
        else:
            print(f"    {entry['file']} {k['kernel']}: not timed: {t.get('error', '?')}", flush=True)


def summarise(results: list[dict]) -> dict:
    counts, why_skipped, ratios, frontend = {}, {}, [], {"ok": 0, "rejects": 0}
    for r in results:
        for k in r["kernels"]:
            v = k.get("verdict", "?")
            counts[v] = counts.get(v, 0) + 1
            if v in ("skipped", "not-compiled"):
                why = k.get("why", "")
                key = normalise(why) if v == "not-compiled" and "error:" in why else \
                    re.sub(r"\b\d+\b", "N", re.sub(r"`[^`]*`|'[^']*'", "'...'", why))[:120]
                why_skipped[f"{v}: {key}"] = why_skipped.get(f"{v}: {key}", 0) + 1
            fe = k.get("cutile_frontend")
            if fe and fe != "not run":
                key = "ok" if fe.startswith("ok") else ("not_checked" if fe.startswith("not checked") else "rejects")
                frontend[key] = frontend.get(key, 0) + 1
            t = k.get("time", {})
            if "ratio" in t:
                ratios.append(t["ratio"])
    s = {"counts": counts, "skipped_why": dict(sorted(why_skipped.items(), key=lambda kv: -kv[1]))}
    bad = {}
    for r in results:
        vs = sorted({k.get("verdict", "?") for k in r["kernels"]} - set(FILE_MATCHED))
        if r.get("error"):
            vs = ["error"] + vs
        elif not r["kernels"]:
            vs = ["no kernels"]
        if vs:
            bad[r["file"]] = vs
    s["files"] = {"total": len(results), "matching": len(results) - len(bad), "not_matching": bad}
    if frontend["ok"] or frontend["rejects"]:
        s["cutile_frontend"] = frontend
    if ratios:
        s["speed"] = {"timed": len(ratios),
                      "geomean_ratio": math.exp(sum(map(math.log, ratios)) / len(ratios)),
                      "below_1_0": sum(x < 1.0 for x in ratios),
                      "below_0_9": sum(x < 0.9 for x in ratios)}
    return s


def _detect_arch() -> str:
    """The GPU's architecture as pykc's JIT targets it (sm_90a on Hopper: wgmma)."""
    import torch
    from pykc.cuda._dispatcher import device_target
    major, minor = torch.cuda.get_device_capability()
    return device_target(f"sm_{major}{minor}")


def main(argv=None) -> int:
    head, _, rest = __doc__.partition("\n\n")
    ap = argparse.ArgumentParser(description=head, epilog=rest,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pykc", default=os.environ.get("PYKC") or os.path.join(ROOT, "build", "bin", "pykc"),
                    help="pykc binary (default $PYKC, else build/bin/pykc)")
    ap.add_argument("--arch", default="auto", help="pykc's --arch (default: the GPU's as the JIT targets it, sm_90a on "
                         "Hopper; sm_90 with --dry-run)")
    ap.add_argument("--json", metavar="OUT", help="write every result as JSON")
    ap.add_argument("--time", action="store_true",
                    help="time each matching kernel, cuTile's against pykc's, afterwards one "
                         "file at a time; print cuTile_time/pykc_time per kernel and the geomean")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU: compile, plan inputs and cuTile calls, run cuTile's front end")
    ap.add_argument("--no-frontend-check", dest="check", action="store_false",
                    help="--dry-run: do not run cuTile's front end on the planned signatures")
    ap.add_argument("--cutile-path", action="append", default=[], metavar="DIR",
                    help="a folder to put first on the children's sys.path (cuda.tile there)")
    ap.add_argument("--jobs", "-j", type=int, default=1,
                    help="files at a time (compiles, comparisons, --time's preparation; the "
                         "timing itself is one kernel at a time, under a lock)")
    ap.add_argument("--shard", default="1/1", metavar="K/N",
                    help="only the K-th of N equal slices of the corpus entries (for short device calls)")
    ap.add_argument("--time-limit", type=float, default=0, metavar="S",
                    help="stop after S seconds: kernels still running are stopped, the rest "
                         "reported not-run, the report and JSON written (0: no limit)")
    ap.add_argument("--kernel-timeout", type=float, default=120,
                    help="seconds for one kernel (cuTile's compile, launches, pykc's launch; 120)")
    ap.add_argument("--file-timeout", type=float, default=600, help="seconds for one file's kernels (600)")
    ap.add_argument("--compile-timeout", type=float, default=180, help="seconds per pykc compile (180)")
    ap.add_argument("--manifest", default=os.path.join(HERE, "corpus.json"), help=argparse.SUPPRESS)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("filter", nargs="*", help="only files whose corpus path contains one of these")
    a = ap.parse_args(argv)
    if a.child:
        return child_main(a.child)
    a.pykc = os.path.abspath(a.pykc)
    a.cutile_path = [os.path.abspath(p) for p in a.cutile_path]
    if not os.access(a.pykc, os.X_OK):
        print(f"run_vs_cutile: no pykc at {a.pykc} (give --pykc)", file=sys.stderr)
        return 2
    if a.arch == "auto":
        if a.dry_run:
            a.arch = "sm_90"
        else:
            try:
                a.arch = _detect_arch()
            except Exception as e:  # noqa: BLE001
                print(f"run_vs_cutile: skipped: no GPU ({type(e).__name__}: {e})")
                return 77
    t_start = time.monotonic()
    deadline = t_start + a.time_limit if a.time_limit > 0 else float("inf")
    entries = json.load(open(a.manifest, encoding="utf-8"))
    k, n = (int(x) for x in a.shard.split("/"))
    chosen = [(i, e) for i, e in enumerate(entries)
              if not e.get("skip") and e.get("kernels")
              and (not a.filter or any(f in e["file"] for f in a.filter))]
    chosen = [c for j, c in enumerate(chosen) if j * n // max(len(chosen), 1) == k - 1]
    mode = "dry run" if a.dry_run else "on the GPU"
    print(f"run_vs_cutile: {len(chosen)} files, {sum(len(e['kernels']) for _, e in chosen)} "
          f"kernels, {mode}, pykc --arch {a.arch}", flush=True)
    results = [None] * len(chosen)
    with tempfile.TemporaryDirectory(prefix="pykc-vs-cutile-") as work:
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
            futs = {pool.submit(process_file, i, e, a, deadline, work): j
                    for j, (i, e) in enumerate(chosen)}
            for fut in concurrent.futures.as_completed(futs):
                j = futs[fut]
                try:
                    results[j] = fut.result()
                except Exception as ex:  # noqa: BLE001 - one file's bug must not end the run
                    results[j] = {"file": chosen[j][1]["file"], "kernels": [],
                                  "error": f"{type(ex).__name__}: {ex}",
                                  "traceback": traceback.format_exc()[-2000:]}
                print_file(results[j], a.dry_run)
        if a.time and not a.dry_run:
            print("=== timing (files prepared in parallel, timed one at a time)", flush=True)
            a.gpu_lock = os.path.join(work, "gpu.lock")
            todo = [(j, e, [k for k in results[j]["kernels"] if k.get("verdict") in MATCHED])
                    for j, (i, e) in enumerate(chosen)]
            with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
                futs = {pool.submit(run_child, e, rows, "time", a, deadline): (e, rows)
                        for j, e, rows in todo if rows}
                for fut in concurrent.futures.as_completed(futs):
                    e, rows = futs[fut]
                    try:
                        fut.result()
                    except Exception as ex:  # noqa: BLE001
                        for k in rows:
                            k["time"] = {"error": f"{type(ex).__name__}: {ex}"}
                    print_times(e, rows)
    s = summarise(results)
    print("kernels: " + ", ".join(f"{v} {c}" for c, v in sorted(s["counts"].items())))
    if not a.dry_run:
        fs = s["files"]
        print(f"files: {fs['matching']} of {fs['total']} with every kernel matching (same, close, as-asserted)")
        for f, vs in sorted(fs["not_matching"].items()):
            print(f"    {f}: {', '.join(vs)}")
    if s["skipped_why"]:
        print("skipped and not compiled, by reason:")
        for why, c in s["skipped_why"].items():
            print(f"  {c:4}  {why}")
    if "cutile_frontend" in s:
        fe = s["cutile_frontend"]
        print(f"cuTile's front end on the planned signatures: {fe['ok']} accepted, {fe['rejects']} rejected, "
              f"{fe.get('not_checked', 0)} not checked (constants KernelSignature cannot spell)")
    if "speed" in s:
        sp = s["speed"]
        print(f"kernel time, cuTile / pykc: geomean {sp['geomean_ratio']:.3f}x over {sp['timed']} "
              f"kernels, {sp['below_1_0']} below 1.0x, {sp['below_0_9']} below 0.9x")
    print(f"({time.monotonic() - t_start:.0f} s)")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"pykc": a.pykc, "arch": a.arch, "dry_run": a.dry_run, "shard": a.shard,
                       "summary": s, "files": results}, f, indent=1, default=str)
    if a.dry_run:
        return 0
    return 1 if any(s["counts"].get(v) for v in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
