"""Reading ``manifest.json`` (docs/ABI.md, ABI version 1) and choosing a target.

Pure Python, no CUDA: everything here is testable on a machine without a GPU.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field

ABI_VERSION = 1

#: dtype names the ABI allows (NumPy's names).
SCALAR_DTYPES = frozenset(
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
    "float16 bfloat16 float32 float64 complex64 complex128 "
    "float8_e4m3fn float8_e5m2 float8_e8m0fnu".split())

#: The 8-bit float dtypes of tile kernels (cuTile's, PyTorch's, ml_dtypes' names).
FLOAT8_NAMES = ("float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu")


@functools.lru_cache(maxsize=None)
def bfloat16_dtype():
    """The NumPy dtype standing for bfloat16 arrays (tile kernels, docs/TILE.md):
    ml_dtypes' bfloat16 when installed, else a 2-byte structured dtype with one field
    named ``bfloat16`` (NumPy has no bfloat16; such arrays come from PyTorch through
    DLPack, so only the dtype's identity matters)."""
    import numpy as np
    try:
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    except ImportError:
        return np.dtype([("bfloat16", "<u2")])


@functools.lru_cache(maxsize=None)
def float8_dtype(name: str):
    """The NumPy dtype standing for `name`'s arrays (FLOAT8_NAMES): ml_dtypes' when
    installed, else a 1-byte structured dtype with one field of that name (such arrays
    come from PyTorch, whose float8 tensors pykc reads as bytes)."""
    import numpy as np
    try:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, name))
    except (ImportError, AttributeError):
        return np.dtype([(name, "u1")])


def special_dtype_name(dt) -> str | None:
    """`bfloat16` or a float8 name for pykc's stand-in dtypes, else None."""
    if dt == bfloat16_dtype():
        return "bfloat16"
    for name in FLOAT8_NAMES:
        if dt == float8_dtype(name):
            return name
    return None


def dtype_of(name: str):
    """The NumPy dtype of a manifest dtype name."""
    import numpy as np
    if name in FLOAT8_NAMES:
        return float8_dtype(name)
    return bfloat16_dtype() if name == "bfloat16" else np.dtype(name)


class ManifestError(ValueError):
    """The manifest is missing, malformed, or of an unsupported ABI version."""


@dataclass(frozen=True)
class Param:
    """One declared kernel parameter (a node of the manifest's ``params`` tree)."""
    name: str
    kind: str                      # "scalar" | "array" | "tuple"
    dtype: str | None = None       # scalar and array
    ndim: int = 0                  # array
    layout: str = "A"              # array: "C", "F" or "A"
    elements: tuple = ()           # tuple: tuple[Param, ...]
    # array of records (dtype "record"): ((name, dtype, offset), ...) and the itemsize
    record: tuple = ()
    itemsize: int = 0
    # array facts the instance was compiled to assume (docs/TILE.md, "Array facts"):
    # the base's alignment in bytes, per-dimension stride and extent divisors
    alignment: int = 0
    stride_divisible_by: tuple = ()
    shape_divisible_by: tuple = ()
    # specialisation constants (cuTile's shape_constant / stride_constant): per dimension
    # the extent (stride, in elements) every launch must give, or None
    shape_constant: tuple = ()
    stride_constant: tuple = ()
    # tuple: a frozen dataclass's class name (its elements are its fields, in order)
    cls: str = ""

    def numpy_dtype(self):
        """The NumPy dtype of a scalar or an array's elements (structured for records)."""
        import numpy as np
        if self.dtype != "record":
            return dtype_of(self.dtype)
        return np.dtype({"names": [f[0] for f in self.record],
                         "formats": [f[1] for f in self.record],
                         "offsets": [f[2] for f in self.record], "itemsize": self.itemsize})

    def type_str(self) -> str:
        """The numba spelling of the type: ``float32[::1]``, ``int64``, ``Tuple(...)``."""
        if self.kind == "scalar":
            return self.dtype
        if self.kind == "tuple":
            return (self.cls or "Tuple") + "(" + ", ".join(e.type_str() for e in self.elements) + ")"
        if self.ndim == 0:
            return f"{self.dtype}[()]"
        return (self.dtype + dims_text(self.ndim, self.layout)
                + facts_text(self.alignment, self.stride_divisible_by, self.shape_divisible_by,
                             self.shape_constant, self.stride_constant))


def dims_text(ndim: int, layout: str) -> str:
    """An array type's brackets in numba's spelling: ``[:, ::1]`` for a 2-d C array."""
    dims = [":"] * ndim
    if layout == "C":
        dims[-1] = "::1"
    elif layout == "F":
        dims[0] = "::1"
    return f"[{', '.join(dims)}]"


def facts_text(alignment: int, stride_divisible_by: tuple, shape_divisible_by: tuple,
               shape_constant: tuple = (), stride_constant: tuple = ()) -> str:
    """``.assume(alignment=16, ...)`` as pykc writes an array's facts (empty parts left
    out), or "" when there are none."""
    parts = [f"alignment={alignment}"] if alignment else []
    for key, v in (("stride_divisible_by", stride_divisible_by),
                   ("shape_divisible_by", shape_divisible_by),
                   ("shape_constant", shape_constant),
                   ("stride_constant", stride_constant)):
        if v:
            parts.append(f"{key}=({', '.join(map(str, v))}{',' if len(v) == 1 else ''})")
    return f".assume({', '.join(parts)})" if parts else ""


@dataclass(frozen=True)
class KernelEntry:
    """One (kernel, signature) pair: one cubin entry symbol."""
    name: str
    signature: str
    symbol: str
    params: tuple                  # tuple[Param, ...]
    cooperative: bool = False
    dynamic_shared_memory: bool = False
    resources: dict = field(default_factory=dict, compare=False, hash=False)
    # debug=True kernels: code -> (exception type name, message, source line) of the
    # assert/raise statements that set the module's `pykc_error` word.
    errors: dict = field(default_factory=dict, compare=False, hash=False)
    # Tile kernels (cuTile's dialect, docs/TILE.md): {"block": [x, y, z], "constants":
    # [{"name", "position", "value"}, ...]}; None for SIMT kernels.
    tile: dict | None = field(default=None, compare=False, hash=False)

    def max_threads_per_block(self, arch: str) -> int | None:
        return (self.resources.get(arch) or {}).get("max_threads_per_block")

    def dynamic_shared_bytes(self, arch: str) -> int:
        """A tile kernel's dynamic shared memory on ``arch`` (0: none), which every
        launch must pass (docs/ABI.md, "Tile kernels")."""
        return int((self.resources.get(arch) or {}).get("dynamic_shared_bytes", 0))


@dataclass(frozen=True)
class Target:
    arch: str                      # "sm_90", "sm_90a", "compute_90", ...
    cubin: str | None              # absolute paths (None when absent)
    ptx: str | None
    # The target the PTX was written for when it is not ``arch`` (LLVM 19 writes sm_90
    # PTX for sm_100 and newer); None: ``arch``'s own.
    ptx_target: str | None = None


@dataclass(frozen=True)
class Fatbin:
    """``pykc compile --fatbin``: one file holding the cubins of ``cubins`` and the PTX
    of ``ptx`` (arch names), from which the driver picks."""
    path: str | None               # absolute (None: in memory)
    cubins: tuple
    ptx: tuple


@dataclass
class Manifest:
    path: str                      # the manifest file
    source: str
    compiler: dict
    targets: list                  # list[Target]
    kernels: list                  # list[KernelEntry], in manifest order
    fatbin: Fatbin | None = None

    def by_name(self) -> dict:
        """Kernel name -> list of its entries (one per signature), in manifest order."""
        out: dict = {}
        for k in self.kernels:
            out.setdefault(k.name, []).append(k)
        return out


def _param(d: dict, where: str) -> Param:
    try:
        kind = d["kind"]
        name = d.get("name", "")
        if kind == "scalar":
            if d["dtype"] not in SCALAR_DTYPES:
                raise ManifestError(f"{where}: unknown dtype {d['dtype']!r}")
            return Param(name, kind, d["dtype"])
        if kind == "array":
            record, itemsize = (), 0
            if d["dtype"] == "record":
                r = d["record"]
                record = tuple(zip(r["names"], r["formats"], (int(o) for o in r["offsets"])))
                itemsize = int(r["itemsize"])
                # A nested array field is `(20,)int32` (NumPy's subarray spelling).
                if any(f[1][f[1].rfind(")") + 1:] not in SCALAR_DTYPES for f in record):
                    raise ManifestError(f"{where}: unknown field dtype in {r['formats']!r}")
            elif d["dtype"] not in SCALAR_DTYPES:
                raise ManifestError(f"{where}: unknown dtype {d['dtype']!r}")
            ndim, layout = int(d["ndim"]), d.get("layout", "A")
            if ndim < 0 or layout not in ("C", "F", "A"):
                raise ManifestError(f"{where}: bad ndim/layout {ndim!r}/{layout!r}")
            facts = {k: tuple(int(x) for x in d[k]) for k in ("stride_divisible_by", "shape_divisible_by")
                     if k in d}
            if any(len(v) != ndim or min(v, default=1) < 1 for v in facts.values()):
                raise ManifestError(f"{where}: bad array facts {facts!r}")
            for k in ("shape_constant", "stride_constant"):
                if k in d:
                    v = tuple(None if x is None else int(x) for x in d[k])
                    if len(v) != ndim:
                        raise ManifestError(f"{where}: bad array facts {k}={v!r}")
                    facts[k] = v
            return Param(name, kind, d["dtype"], ndim, layout, record=record, itemsize=itemsize,
                         alignment=int(d.get("alignment", 0)), **facts)
        if kind == "tuple":
            elems = tuple(_param(e, f"{where}.{i}") for i, e in enumerate(d["elements"]))
            return Param(name, kind, elements=elems, cls=str(d.get("class", "")))
    except (KeyError, TypeError) as e:
        raise ManifestError(f"{where}: malformed parameter {d!r} ({e})") from None
    raise ManifestError(f"{where}: unknown parameter kind {kind!r}")


def _tile(t, where: str):
    if t is None:
        return None
    try:
        block = tuple(int(b) for b in t["block"])
        # (name, position, value, element): element, the path into a tuple parameter for
        # its Constant elements (`cfg[0]`: (0,), the tuple still passed), else ().
        consts = tuple((str(c["name"]), int(c["position"]), c["value"],
                        tuple(int(i) for i in c.get("element", ()))) for c in t["constants"])
    except (KeyError, TypeError, ValueError) as e:
        raise ManifestError(f"{where}: malformed tile entry {t!r} ({e})") from None
    if len(block) != 3 or min(block) < 1:
        raise ManifestError(f"{where}: bad tile block {block!r}")
    return {"block": block, "constants": consts}


def read_manifest(path: str) -> Manifest:
    """Read a manifest given its file or the output folder holding ``manifest.json``."""
    if os.path.isdir(path):
        path = os.path.join(path, "manifest.json")
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except OSError as e:
        raise ManifestError(f"cannot read pykc manifest {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ManifestError(f"{path}: not valid JSON ({e})") from None
    return parse_manifest(m, path, os.path.dirname(os.path.abspath(path)))


def parse_manifest(m, path: str, base: str | None) -> Manifest:
    """A Manifest from the parsed JSON ``m`` (``path`` names it in errors); ``base`` is
    the folder its cubin and PTX paths are relative to (None: the code is in memory,
    as the JIT holds it, and the targets have no paths)."""
    if not isinstance(m, dict) or m.get("format") != "pykc-manifest":
        raise ManifestError(f"{path}: not a pykc manifest (format != 'pykc-manifest')")
    if m.get("abi_version") != ABI_VERSION:
        raise ManifestError(f"{path}: ABI version {m.get('abi_version')!r} is not supported "
                            f"by this loader (it reads version {ABI_VERSION})")
    rel = lambda p: os.path.join(base, p) if p and base is not None else None  # noqa: E731
    try:
        targets = [Target(t["arch"], rel(t.get("cubin")), rel(t.get("ptx")), t.get("ptx_target"))
                   for t in m["targets"]]
        fb = m.get("fatbin")
        fatbin = None if fb is None else Fatbin(rel(fb["file"]), tuple(fb.get("cubins") or ()),
                                                tuple(fb.get("ptx") or ()))
        kernels = [KernelEntry(k["name"], k.get("signature", ""), k["symbol"],
                               tuple(_param(p, f"{k['name']}.params[{i}]")
                                     for i, p in enumerate(k["params"])),
                               bool(k.get("cooperative", False)),
                               bool(k.get("dynamic_shared_memory", False)),
                               dict(k.get("resources") or {}),
                               {int(e["code"]): (str(e["type"]), str(e.get("message", "")),
                                                 int(e.get("line", 0)))
                                for e in k.get("errors") or ()},
                               _tile(k.get("tile"), k["name"]))
                   for k in m["kernels"]]
    except (KeyError, TypeError) as e:
        raise ManifestError(f"{path}: malformed manifest ({e!r})") from None
    return Manifest(path, m.get("source", ""), dict(m.get("compiler") or {}), targets, kernels,
                    fatbin)


_ARCH = re.compile(r"^(?:sm|compute)_(\d+)(\d)([af]?)$")


def parse_arch(arch: str) -> tuple:
    """``"sm_90a"`` -> ``(9, 0, "a")``."""
    m = _ARCH.match(arch)
    if not m:
        raise ManifestError(f"unrecognised target arch {arch!r}")
    return int(m[1]), int(m[2]), m[3]


def arch_text(cc: tuple) -> str:
    """``(9, 0)`` -> ``"sm_90"``: a GPU's arch as pykc names it."""
    return f"sm_{cc[0]}{cc[1]}"


def select_target(targets, cc: tuple) -> tuple:
    """Pick the code to load on a device of compute capability ``cc = (major, minor)``.

    Returns ``(target, kind)`` with kind ``"cubin"`` or ``"ptx"``; ``choose`` also says
    why. Rules (docs/ABI.md): a cubin whose arch equals the device (``sm_90a`` for 9.0:
    built for that chip alone, it holds its fastest code, wgmma; then ``sm_90`` and
    ``sm_90f``), else the newest cubin of the same major version not
    newer than the device (``a`` variants excluded, ``f`` family variants allowed). When
    no cubin fits, the newest PTX whose target is not newer than the device (any major;
    an ``a`` target only on exactly its device), JIT-compiled by the driver. Raises
    ManifestError naming the device's arch and what the build holds when nothing fits.
    """
    target, kind, _ = choose(targets, cc)
    return target, kind


def _ptx_arch(t) -> tuple:
    """(major, minor, suffix) of the target a Target's PTX was written for."""
    return parse_arch(t.ptx_target or t.arch)


def choose(targets, cc: tuple, where: str = "the build") -> tuple:
    """``select_target`` with the reason: ``(target, kind, how)``, how one of ``"exact
    cubin"``, ``"compatible cubin"`` (same major, older minor) or ``"PTX"`` (the driver's
    JIT). ``where`` names the build in the error."""
    major, minor = cc
    best, best_key = None, None
    for t in targets:
        if not t.cubin:
            continue
        tmaj, tmin, suf = parse_arch(t.arch)
        if tmaj != major or tmin > minor or (suf == "a" and tmin != minor):
            continue
        # Exact "sm_XYa" wins (the chip's own features: wgmma on sm_90a), then "sm_XY", then
        # "sm_XYf", then the newest lower minor.
        key = (tmin == minor and suf == "a", tmin == minor and suf == "", tmin)
        if best_key is None or key > best_key:
            best, best_key = t, key
    if best is not None:
        return best, "cubin", "exact cubin" if parse_arch(best.arch)[1] == minor else "compatible cubin"
    ptx = []
    for t in targets:
        if not t.ptx:
            continue
        pmaj, pmin, suf = _ptx_arch(t)
        if (pmaj, pmin) <= (major, minor) and (suf != "a" or (pmaj, pmin) == (major, minor)):
            ptx.append(t)
    if ptx:
        return max(ptx, key=lambda t: _ptx_arch(t)[:2]), "ptx", "PTX"
    cubins = [t.arch for t in targets if t.cubin]
    ptxs = [t.arch for t in targets if t.ptx and not t.cubin]
    raise ManifestError(
        f"no code in {where} runs on this GPU ({arch_text(cc)}, compute capability "
        f"{major}.{minor}): it holds cubins for {', '.join(cubins) or 'no arch'} and PTX for "
        f"{', '.join(ptxs) or 'no arch'}; compile with --arch {arch_text(cc)} (or add "
        f"compute_XY PTX, which later GPUs JIT-compile)")


def fatbin_targets(fatbin: Fatbin) -> list:
    """A fatbin's contents as Targets (their cubin or ptx being the fatbin's path), for
    ``choose``: what the driver will pick from it."""
    path = fatbin.path or "<fatbin>"
    return ([Target(a, path, None) for a in fatbin.cubins]
            + [Target(a, None, path) for a in fatbin.ptx])
