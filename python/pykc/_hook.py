"""``pykc.install()``: unchanged numba (and cuTile) programs run on pykc.

After ``install()``, ``import numba``, ``from numba import cuda``, ``numba.cuda.*``,
``numba.types``, ``from numba import float32, void, ...`` and ``import cuda.tile as ct``
give pykc's modules, so a
program written for numba-cuda runs with pykc compiling its kernels, with no numba or
llvmlite installed. Names of numba outside its CUDA API (``numba.njit``, ``numba.prange``,
``numba.np.numpy_support``) come from the real numba where it is installed: the first such
name imports it (as ``numba``; ``numba.cuda`` stays pykc's), and pykc's ``numba`` module
hands it that name. Without numba they raise an ImportError/AttributeError that says so.
``python -m pykc run app.py`` installs the hook and runs ``app.py`` as ``__main__``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import types as _pytypes

__all__ = ["install", "uninstall", "installed"]

# What each numba module name is in pykc.
_ALIASES = {
    "numba.cuda": "pykc.cuda",
    "numba.cuda.random": "pykc.cuda.random",
    "numba.types": "pykc.types",
    "numba.core.types": "pykc.types",
    "numba.cuda.types": "pykc.types",
    "numba.cuda.testing": "pykc.cuda.testing",
    "numba.cuda.config": "pykc.cuda.config",
    "numba.cuda.core": "pykc.cuda.core",
    "numba.cuda.core.config": "pykc.cuda.config",
    "numba.cuda.core.errors": "pykc.cuda.core.errors",
    "numba.core.errors": "pykc.cuda.core.errors",
    "numba.cuda.tests": "pykc.cuda.tests",
    "numba.cuda.tests.support": "pykc.cuda.tests.support",
}

_NOT_CUDA = ("pykc runs numba's CUDA API (numba.cuda, numba.types); `numba.{name}` is "
             "outside it, and numba is not installed: install numba for that part "
             "(pykc then takes it from there), or run this program with numba itself.")


class _RealNumba:
    """The installed numba, imported on the first name pykc does not provide."""

    def __init__(self):
        self.module = None
        self.missing = False  # searched for and not found
        self.lock = threading.RLock()

    def available(self) -> bool:
        if self.module is None and not self.missing:
            self.missing = importlib.machinery.PathFinder.find_spec("numba") is None
        return not self.missing

    def load(self):
        """Import the real numba as ``numba`` (pykc's finder answers only numba.cuda.*
        from then on; pykc's stand-ins of numba.types and numba.core.* leave sys.modules
        for numba's own), or None where it is not installed."""
        with self.lock:
            if self.module is not None or not self.available():
                return self.module
            _FINDER.real = True
            saved = {n: sys.modules.pop(n) for n in list(sys.modules)
                     if (n == "numba" or n.startswith("numba.")) and not _is_cuda_name(n)}
            try:
                real = importlib.import_module("numba")
            except BaseException:
                _FINDER.real = False
                sys.modules.update(saved)
                raise
            import pykc.cuda
            real.cuda = pykc.cuda
            self.module = real
            return real


def _is_cuda_name(name: str) -> bool:
    return name == "numba.cuda" or name.startswith("numba.cuda.")


_REAL = _RealNumba()


def _numba_module():
    """The ``numba`` package pykc stands in for: cuda, types and the type names."""
    import pykc.cuda as cuda
    import pykc.types as nbtypes

    mod = _pytypes.ModuleType("numba", "numba's CUDA API, provided by pykc "
                              "(pykc.install())")
    mod.__path__ = []            # a package: numba.cuda, numba.types below it
    mod.__pykc__ = True
    mod.cuda = cuda
    mod.types = nbtypes
    mod.__version__ = "0.61.0+pykc"
    for name in nbtypes.__all__:
        setattr(mod, name, getattr(nbtypes, name))

    def typeof(value):
        from pykc._typeof import typeof as _typeof
        return _typeof(value)
    mod.typeof = typeof

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        real = _REAL.load()
        if real is None:
            raise AttributeError(_NOT_CUDA.format(name=name))
        return getattr(real, name)
    mod.__getattr__ = __getattr__
    return mod


class _Loader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        if self.target is None:
            return _numba_module()
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass


def _tile_submodule(fullname):
    """``cuda.tile.tune`` and the other public submodules are pykc.tile's; cuTile's private
    ones (``cuda.tile._cext``, ...) are not provided."""
    target = "pykc.tile." + fullname[len("cuda.tile."):]
    if importlib.util.find_spec(target) is None:
        raise ImportError(f"pykc provides cuda.tile's API; `{fullname}` is not part of it",
                          name=fullname)
    return importlib.util.spec_from_loader(fullname, _Loader(target))


class _Finder(importlib.abc.MetaPathFinder):
    """Answers for ``numba`` and the numba modules pykc provides; once the real numba is
    loaded (``real``), only for numba.cuda.*."""

    real = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "cuda.tile":
            return importlib.util.spec_from_loader(fullname, _Loader("pykc.tile"),
                                                   is_package=True)
        if fullname.startswith("cuda.tile."):
            return _tile_submodule(fullname)
        if fullname == "cuda" and importlib.machinery.PathFinder.find_spec("cuda") is None:
            # No cuda.core / cuda-python here: `cuda` only holds pykc's `cuda.tile`.
            return importlib.util.spec_from_loader(fullname, _Loader("pykc._cuda_namespace"),
                                                   is_package=True)
        if fullname != "numba" and not fullname.startswith("numba."):
            return None
        # numba.cuda.* is pykc's; the rest of numba is pykc's stand-ins until the real
        # numba is loaded, then numba's own.
        if fullname in _ALIASES and (not self.real or _is_cuda_name(fullname)):
            return importlib.util.spec_from_loader(fullname, _Loader(_ALIASES[fullname]),
                                                   is_package=True)
        if _is_cuda_name(fullname):
            raise ImportError(f"pykc provides numba.cuda; `{fullname}` is not part of it",
                              name=fullname)
        if self.real:
            return None
        if fullname == "numba":
            return importlib.util.spec_from_loader(fullname, _Loader(None), is_package=True)
        real = _REAL.load()
        if real is None:
            raise ImportError(_NOT_CUDA.format(name=fullname[len("numba."):]), name=fullname)
        # The parent is numba's own now: look in its folders.
        parent = sys.modules.get(fullname.rpartition(".")[0])
        return importlib.machinery.PathFinder.find_spec(
            fullname, getattr(parent, "__path__", real.__path__), target)


_FINDER = _Finder()


def installed() -> bool:
    return _FINDER in sys.meta_path


def install():
    """Make ``numba`` imports give pykc's modules (before the program imports numba)."""
    if installed():
        return
    for name in [n for n in sys.modules if n == "numba" or n.startswith("numba.")]:
        if not getattr(sys.modules[name], "__pykc__", False):
            raise RuntimeError("pykc.install() must run before numba is imported")
    sys.meta_path.insert(0, _FINDER)


def uninstall():
    if installed():
        sys.meta_path.remove(_FINDER)
    _FINDER.real = False
    _REAL.module, _REAL.missing = None, False
    for name in [n for n in sys.modules if n == "numba" or n.startswith("numba.")]:
        del sys.modules[name]
