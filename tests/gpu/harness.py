"""Registry and helpers for the GPU tests (tests/gpu/cases/*.py register cases here).

A case is a function ``fn(ctx)`` registered with ``@case(name, folder)``: ``folder`` is
the compiled output it needs, under the root given to run_gpu_tests.py. It passes by
returning (optionally a short detail string), fails by raising, and skips by raising
``Skip``. ``ctx`` gives fresh random inputs, poisoned outputs, array frameworks and
checked comparisons against NumPy references.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))
import pykc  # noqa: E402

BACKENDS = ("cuda.core", "cupy")
VIAS = ("numpy", "cupy", "torch")          # how arrays reach the kernel

# (max relative L2 error, max abs error relative to max |reference|, at least 1)
TOLERANCE = {"float16": (1e-3, 2e-3), "float32": (1e-6, 4e-6), "float64": (1e-14, 4e-14)}


class Skip(Exception):
    """Raised by a case that cannot run here (missing framework, ...)."""


@dataclass
class Case:
    name: str
    folder: str
    fn: object


CASES: list = []


def case(name: str, folder: str):
    def register(fn):
        CASES.append(Case(name, folder, fn))
        return fn
    return register


def load_case_modules():
    """Import every tests/gpu/cases/*.py (each registers its cases on import)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    for f in sorted(os.listdir(os.path.join(here, "cases"))):
        if f.endswith(".py") and not f.startswith("_"):
            importlib.import_module(f"cases.{f[:-3]}")


# --------------------------------------------------------------------------- frameworks

class Via:
    """Moves arrays between NumPy and one framework (numpy: arrays stay on the host and
    the loader copies them over and back)."""

    def __init__(self, name: str):
        self.name = name
        if name == "cupy":
            try:
                import cupy
            except ImportError as e:
                raise Skip(f"CuPy not importable ({e})")
            self.xp = cupy
        elif name == "torch":
            try:
                import torch
            except ImportError as e:
                raise Skip(f"PyTorch not importable ({e})")
            if not torch.cuda.is_available():
                raise Skip("PyTorch sees no CUDA device")
            self.xp = torch

    def to_dev(self, host: np.ndarray):
        if self.name == "numpy":
            return host.copy(order="K")
        if self.name == "cupy":
            return self.xp.asarray(host)
        return self.xp.from_numpy(np.ascontiguousarray(host)).to("cuda")

    def to_host(self, dev) -> np.ndarray:
        if self.name == "numpy":
            return np.asarray(dev)
        if self.name == "cupy":
            return self.xp.asnumpy(dev)
        self.xp.cuda.synchronize()
        return dev.cpu().numpy()

    def sync(self):
        if self.name == "cupy":
            self.xp.cuda.runtime.deviceSynchronize()
        elif self.name == "torch":
            self.xp.cuda.synchronize()


# --------------------------------------------------------------------------- context

class Context:
    def __init__(self, root: str, folder: str, seed: int):
        self.root, self.folder = root, folder
        self.rng = np.random.default_rng(seed)
        self._mods: dict = {}

    def load(self, backend: str = "cuda.core"):
        """The compiled output of this case, through ``backend`` (synchronising launches,
        so a failing kernel fails at its launch)."""
        if backend == "cupy":
            try:
                import cupy  # noqa: F401
            except ImportError as e:
                raise Skip(f"CuPy not importable ({e})")
        if backend not in self._mods:
            self._mods[backend] = pykc.load(os.path.join(self.root, self.folder),
                                            backend=backend, sync=True)
        mod = self._mods[backend]
        assert mod.backend.name == backend, f"loaded through {mod.backend.name}"
        return mod

    def via(self, name: str) -> Via:
        return Via(name)

    def randn(self, shape, dtype) -> np.ndarray:
        return self.rng.standard_normal(shape).astype(dtype)

    @staticmethod
    def poison(shape, dtype, order="C") -> np.ndarray:
        """NaN for floating point, 0xAB bytes otherwise: unwritten outputs show up."""
        dt = np.dtype(dtype)
        if dt.kind in "fc":
            return np.full(shape, np.nan, dt, order=order)
        a = np.empty(shape, dt, order=order)
        a.view(np.uint8)[...] = 0xAB
        return a

    @staticmethod
    def compare(got: np.ndarray, want: np.ndarray, what: str = "out") -> str:
        """Raise AssertionError unless ``got`` matches ``want`` (per-dtype thresholds)."""
        got = np.asarray(got)
        if got.shape != want.shape:
            raise AssertionError(f"{what}: shape {got.shape} != expected {want.shape}")
        dt = got.dtype.name
        if dt not in TOLERANCE:
            bad = np.count_nonzero(got != want)
            if bad:
                i = np.flatnonzero((got != want).ravel())[0]
                raise AssertionError(f"{what}: {bad} of {got.size} elements differ "
                                     f"(first at flat {i}: {got.ravel()[i]} != "
                                     f"{want.ravel()[i]})")
            return f"{what}: exact"
        g, w = got.astype(np.float64), want.astype(np.float64)
        if not np.all(np.isfinite(g)):
            raise AssertionError(f"{what}: {np.count_nonzero(~np.isfinite(g))} of {g.size} "
                                 "elements not finite (poison left: unwritten?)")
        err = np.abs(g - w)
        scale = max(1.0, float(np.max(np.abs(w))) if w.size else 1.0)
        rel_l2 = float(np.linalg.norm(err) / max(np.linalg.norm(w), 1e-300)) if w.size else 0
        max_abs = float(err.max()) if w.size else 0.0
        tol_l2, tol_abs = TOLERANCE[dt]
        detail = f"{what}: rel_l2 {rel_l2:.2e} max_abs {max_abs:.2e}"
        if rel_l2 > tol_l2 or max_abs > tol_abs * scale:
            raise AssertionError(f"{detail} exceed {dt} thresholds "
                                 f"({tol_l2:.0e}, {tol_abs * scale:.1e})")
        return detail

    @staticmethod
    def expect_error(exc_type, fn, *must_mention) -> str:
        """Run ``fn``; it must raise ``exc_type`` whose message mentions every string."""
        try:
            fn()
        except exc_type as e:
            msg = str(e)
            missing = [m for m in must_mention if m not in msg]
            if missing:
                raise AssertionError(f"error message lacks {missing}: {msg}")
            return f"refused: {msg.splitlines()[0][:110]}..."
        raise AssertionError(f"expected {exc_type.__name__}, but the call succeeded")
