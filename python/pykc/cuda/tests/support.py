"""numba.cuda.tests.support's helpers that numba-cuda's documentation examples use."""

from __future__ import annotations

import contextlib
import io
import sys
import unittest

from .. import config

__all__ = ["captured_stdout", "captured_stderr", "override_config", "skip_unless_cffi",
           "linux_only", "windows_only"]


def captured_stdout():
    return contextlib.redirect_stdout(io.StringIO())


def captured_stderr():
    return contextlib.redirect_stderr(io.StringIO())


@contextlib.contextmanager
def override_config(name, value):
    old = getattr(config, name)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, old)


try:
    import cffi  # noqa: F401
    _HAS_CFFI = True
except ImportError:
    _HAS_CFFI = False

skip_unless_cffi = unittest.skipUnless(_HAS_CFFI, "requires cffi")
linux_only = unittest.skipIf(not sys.platform.startswith("linux"), "linux only test")
windows_only = unittest.skipIf(not sys.platform.startswith("win"), "Windows only test")
