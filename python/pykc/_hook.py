"""``pykc.install()``: unchanged numba (and cuTile) programs run on pykc.

After ``install()``, ``import numba``, ``from numba import cuda``, ``numba.cuda.*``,
``numba.types``, ``from numba import float32, void, ...`` and ``import cuda.tile as ct``
give pykc's modules, so a
program written for numba-cuda runs with pykc compiling its kernels, with no numba or
llvmlite installed. Names of numba outside its CUDA API (``numba.njit``, ``numba.prange``)
raise an ImportError/AttributeError that says so. ``python -m pykc run app.py`` installs
the hook and runs ``app.py`` as ``__main__``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
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
             "outside it. Run this program with numba itself for that part.")


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
        raise AttributeError(_NOT_CUDA.format(name=name))
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


class _Finder(importlib.abc.MetaPathFinder):
    """Answers for ``numba`` and the numba modules pykc provides."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "cuda.tile":
            return importlib.util.spec_from_loader(fullname, _Loader("pykc.tile"),
                                                   is_package=True)
        if fullname == "cuda" and importlib.machinery.PathFinder.find_spec("cuda") is None:
            # No cuda.core / cuda-python here: `cuda` only holds pykc's `cuda.tile`.
            return importlib.util.spec_from_loader(fullname, _Loader("pykc._cuda_namespace"),
                                                   is_package=True)
        if fullname == "numba":
            return importlib.util.spec_from_loader(fullname, _Loader(None), is_package=True)
        if fullname in _ALIASES:
            return importlib.util.spec_from_loader(fullname, _Loader(_ALIASES[fullname]),
                                                   is_package=True)
        if fullname.startswith("numba."):
            raise ImportError(_NOT_CUDA.format(name=fullname[len("numba."):]),
                              name=fullname)
        return None


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
    for name in [n for n in sys.modules if n == "numba" or n.startswith("numba.")]:
        del sys.modules[name]
