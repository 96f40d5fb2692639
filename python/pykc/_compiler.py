"""libpykc from Python: pykc's compiler in this process (include/pykc/pykc.h, ctypes).

    from pykc._compiler import compiler, CompileError
    out = compiler().compile("kernels.py", kernel="saxpy",
                             sigs=["saxpy(float32, float32[::1], float32[::1])"],
                             archs=["sm_90"])
    out.cubin("sm_90"), out.manifest, out.kernels

The library is found at ``$PYKC_LIBRARY``, else inside this package (``lib/``, as the
wheel installs it; ``_lib/``), else in the source tree's ``build/lib/``, else by the dynamic
loader's search (``libpykc.so``). One session per process, created on first use: it holds
the kernel cache (the CLI's: ``$PYKC_CACHE_DIR``, ``$XDG_CACHE_HOME/pykc`` or
``~/.cache/pykc``) and may be used from several threads at once.
"""

from __future__ import annotations

import ctypes
import json
import os
import threading
from dataclasses import dataclass

__all__ = ["CompileError", "CompileWarning", "LibraryError", "Compiled", "Compiler", "compiler", "find_library"]

API_VERSION = 2

# Exit classes (enum pykc_exit_class).
OK, SOURCE_ERRORS, USAGE, ENVIRONMENT = 0, 1, 2, 3


class CompileError(Exception):
    """pykc could not compile a kernel. ``str(e)`` holds the diagnostics as pykc prints
    them (``file:line:col: error: ...`` with the source line and a caret);
    ``e.diagnostics`` the same as a list of dicts; ``e.exit_class`` pykc's exit code."""

    def __init__(self, message: str, diagnostics=(), exit_class: int = SOURCE_ERRORS):
        super().__init__(message)
        self.diagnostics = list(diagnostics)
        self.exit_class = exit_class


class CompileWarning(UserWarning):
    """pykc's warnings about a kernel that compiled (float64 arithmetic in a float32
    kernel, options it ignores, ...), with the source line and a caret."""


class LibraryError(RuntimeError):
    """libpykc cannot be found or loaded, or is of another API version."""


class _SessionOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t),
                ("cache_dir", ctypes.c_char_p),
                ("no_cache", ctypes.c_int),
                ("threads", ctypes.c_uint),
                ("libdevice_path", ctypes.c_char_p),
                ("nvjitlink_path", ctypes.c_char_p),
                ("nvrtc_path", ctypes.c_char_p)]


_StrArray = ctypes.POINTER(ctypes.c_char_p)


class _CompileOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t),
                ("path", ctypes.c_char_p),
                ("source", ctypes.c_char_p),
                ("source_size", ctypes.c_size_t),
                ("kernel", ctypes.c_char_p),
                ("sigs", _StrArray), ("num_sigs", ctypes.c_size_t),
                ("consts", _StrArray), ("num_consts", ctypes.c_size_t),
                ("archs", _StrArray), ("num_archs", ctypes.c_size_t),
                ("defines", _StrArray), ("num_defines", ctypes.c_size_t),
                ("opt_level", ctypes.c_int),
                ("fast_math", ctypes.c_int),
                ("lineinfo", ctypes.c_int),
                ("max_registers", ctypes.c_int),
                ("check_only", ctypes.c_int)]


def _here() -> str:
    return os.path.dirname(os.path.abspath(__file__))


def find_library() -> list:
    """The places libpykc is looked for, in order."""
    places = []
    env = os.environ.get("PYKC_LIBRARY")
    if env:
        places.append(env)
    places.append(os.path.join(_here(), "lib", "libpykc.so"))
    places.append(os.path.join(_here(), "_lib", "libpykc.so"))
    places.append(os.path.normpath(os.path.join(_here(), "..", "..", "build", "lib",
                                                "libpykc.so")))
    places.append("libpykc.so")
    return places


def _load():
    tried = []
    for place in find_library():
        if os.sep in place and not os.path.exists(place):
            tried.append(f"  {place}: no such file")
            continue
        try:
            lib = ctypes.CDLL(place)
        except OSError as e:
            tried.append(f"  {place}: {e}")
            continue
        _declare(lib)
        if lib.pykc_api_version() != API_VERSION:
            raise LibraryError(f"{place} has C API version {lib.pykc_api_version()}; this "
                               f"pykc package needs version {API_VERSION}")
        return lib, place
    raise LibraryError("libpykc (pykc's compiler library) was not found; set PYKC_LIBRARY "
                       "to its path. Tried:\n" + "\n".join(tried))


def _declare(lib):
    P, S, I, Z = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t
    sigs = {
        "pykc_api_version": (I, []),
        "pykc_version": (S, []),
        "pykc_session_options_init": (None, [ctypes.POINTER(_SessionOptions)]),
        "pykc_compile_options_init": (None, [ctypes.POINTER(_CompileOptions)]),
        "pykc_session_create": (P, [ctypes.POINTER(_SessionOptions)]),
        "pykc_session_free": (None, [P]),
        "pykc_compile": (P, [P, ctypes.POINTER(_CompileOptions)]),
        "pykc_result_free": (None, [P]),
        "pykc_result_exit_class": (I, [P]),
        "pykc_result_diagnostics": (S, [P]),
        "pykc_result_diagnostics_json": (S, [P]),
        "pykc_result_manifest": (S, [P]),
        "pykc_result_arch_count": (Z, [P]),
        "pykc_result_arch": (S, [P, Z]),
        "pykc_result_cubin": (P, [P, Z, ctypes.POINTER(Z)]),
        "pykc_result_ptx": (P, [P, Z, ctypes.POINTER(Z)]),
        "pykc_result_cache_hit": (I, [P, Z]),
        "pykc_xoroshiro128p_states": (None, [P, Z, ctypes.c_ulonglong, ctypes.c_ulonglong]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    if hasattr(lib, "pykc_session_prepare"):  # libraries before it lack it
        lib.pykc_session_prepare.restype = I
        lib.pykc_session_prepare.argtypes = [P, S]


def _strings(items):
    items = [s.encode() if isinstance(s, str) else bytes(s) for s in items]
    arr = (ctypes.c_char_p * max(len(items), 1))(*items)
    return arr, len(items)


@dataclass
class Compiled:
    """What one compile produced (for every requested arch)."""
    manifest: dict                 # manifest.json, parsed (docs/ABI.md)
    archs: list                    # ["sm_90", ...] in request order
    cubins: dict                   # arch -> bytes
    ptx: dict                      # arch -> str
    cache_hits: dict               # arch -> bool
    diagnostics: str               # warnings, as pykc prints them ("" when none)

    def cubin(self, arch: str) -> bytes:
        return self.cubins[arch]


class Compiler:
    """One libpykc session."""

    def __init__(self, cache_dir: str | None = None, no_cache: bool = False):
        self._lib, self.library_path = _load()
        opts = _SessionOptions()
        self._lib.pykc_session_options_init(ctypes.byref(opts))
        if cache_dir:
            opts.cache_dir = cache_dir.encode()
        opts.no_cache = 1 if no_cache else 0
        self._session = self._lib.pykc_session_create(ctypes.byref(opts))
        if not self._session:
            raise LibraryError("pykc_session_create failed")

    def xoroshiro128p_states(self, out, seed: int, subsequence_start: int = 0):
        """Fill the C-contiguous uint64 array ``out`` (2 words a state) natively."""
        self._lib.pykc_xoroshiro128p_states(out.ctypes.data, out.size // 2, seed,
                                            subsequence_start)

    def prepare(self, arch: str) -> bool:
        """The set-up a first compile would do on its way (cache, nvJitLink, the NVPTX
        target, an empty link for ``arch``), done now; the GIL is released meanwhile. A
        program may call it on a thread of its own well before its first kernel (a
        miss loads nvJitLink beside its own front end anyway; started from the
        decorators, it slowed a fresh process's first cache hit from 1.6 to 6.5 ms on
        the H200 host, so nothing calls it by default)."""
        f = getattr(self._lib, "pykc_session_prepare", None)
        return bool(f and f(self._session, arch.encode()))

    @property
    def version(self) -> str:
        return self._lib.pykc_version().decode()

    def compile(self, path: str, source: bytes | str | None = None, *, kernel: str | None = None,
                sigs=(), consts=(), archs=("sm_90",), defines=(), opt_level: int = 3,
                fast_math: bool = False, lineinfo: bool = False,
                max_registers: int = 0, check_only: bool = False) -> Compiled:
        """Compile ``path`` (or ``source``, named ``path`` in diagnostics); raise
        CompileError with pykc's diagnostics when it fails."""
        lib = self._lib
        o = _CompileOptions()
        lib.pykc_compile_options_init(ctypes.byref(o))
        o.path = os.fsencode(path)
        if source is not None:
            data = source.encode() if isinstance(source, str) else bytes(source)
            o.source, o.source_size = data, len(data)
        if kernel:
            o.kernel = kernel.encode()
        keep = []
        for field_name, items in (("sigs", sigs), ("consts", consts), ("archs", archs),
                                  ("defines", defines)):
            arr, n = _strings(items)
            keep.append(arr)
            setattr(o, field_name, ctypes.cast(arr, _StrArray))
            setattr(o, "num_" + field_name, n)
        o.opt_level, o.fast_math = int(opt_level), int(bool(fast_math))
        o.lineinfo, o.max_registers = int(bool(lineinfo)), int(max_registers or 0)
        o.check_only = int(bool(check_only))
        r = lib.pykc_compile(self._session, ctypes.byref(o))
        if not r:
            raise MemoryError("pykc_compile returned no result")
        try:
            exit_class = lib.pykc_result_exit_class(r)
            text = (lib.pykc_result_diagnostics(r) or b"").decode(errors="replace")
            if exit_class != OK:
                diags = json.loads(lib.pykc_result_diagnostics_json(r) or b"[]")
                raise CompileError(text.rstrip("\n") or "pykc: compile failed", diags,
                                   exit_class)
            manifest = json.loads(lib.pykc_result_manifest(r).decode() or "{}")
            archs_out, cubins, ptx, hits = [], {}, {}, {}
            size = ctypes.c_size_t()
            for i in range(lib.pykc_result_arch_count(r)):
                arch = lib.pykc_result_arch(r, i).decode()
                archs_out.append(arch)
                p = lib.pykc_result_cubin(r, i, ctypes.byref(size))
                cubins[arch] = ctypes.string_at(p, size.value) if p else b""
                p = lib.pykc_result_ptx(r, i, ctypes.byref(size))
                ptx[arch] = ctypes.string_at(p, size.value).decode() if p else ""
                hits[arch] = bool(lib.pykc_result_cache_hit(r, i))
            return Compiled(manifest, archs_out, cubins, ptx, hits, text)
        finally:
            lib.pykc_result_free(r)

    def __del__(self):
        s, self._session = getattr(self, "_session", None), None
        if s and getattr(self, "_lib", None) is not None:
            self._lib.pykc_session_free(s)


_COMPILER: Compiler | None = None
_COMPILER_LOCK = threading.Lock()


def preload():
    """Start loading libpykc in a background thread (its static initialisers take a few
    milliseconds), so that a program's first kernel launch does not wait for it."""
    if _COMPILER is None and os.environ.get("PYKC_PRELOAD", "1") != "0":
        def load():
            try:
                compiler()
            except Exception:  # noqa: BLE001  (reported again at the first compile)
                pass
        threading.Thread(target=load, name="pykc-preload", daemon=True).start()


def compiler() -> Compiler:
    """The process's compiler session (created on first use)."""
    global _COMPILER
    if _COMPILER is None:
        with _COMPILER_LOCK:
            if _COMPILER is None:
                _COMPILER = Compiler(no_cache=os.environ.get("PYKC_NO_CACHE", "") not in
                                     ("", "0"))
    return _COMPILER
