"""cuTile's exception classes (``ct.TileTypeError``, ...), raised by pykc when a tile kernel
does not compile. All are ``pykc.CompileError`` subclasses (``str(e)`` holds pykc's own
diagnostics); which one is chosen by the first error's kind, as near to cuTile's choice as
pykc's kinds allow: programs that catch ``ct.TileError`` or one of its subclasses keep
working, those that match cuTile's message text do not."""

from __future__ import annotations

from .._compiler import CompileError

__all__ = ["TileError", "TileSyntaxError", "TileTypeError", "TileValueError",
           "TileUnsupportedFeatureError", "TileRecursionError", "TileStaticEvalError",
           "TileStaticAssertionError", "TileInternalError", "TileCompilerExecutionError",
           "TileCompilerTimeoutError", "tile_error"]


class TileError(CompileError):
    """A tile kernel did not compile."""


class TileSyntaxError(TileError):
    """Python that tile kernels do not take (``continue`` in a ``ct.static_iter`` loop, ...)."""


class TileTypeError(TileError):
    """Types, shapes or dtypes that do not fit."""


class TileValueError(TileError):
    """A value out of range for its operation."""


class TileUnsupportedFeatureError(TileError):
    """Something pykc does not compile in tile kernels yet."""


class TileRecursionError(TileError):
    """A helper that calls itself."""


class TileStaticEvalError(TileError):
    """``ct.static_eval`` of an expression that is not a compile-time value."""


class TileStaticAssertionError(TileError):
    """A ``ct.static_assert`` that failed."""


class TileInternalError(TileError):
    """The compiler failed (not the kernel's fault)."""


class TileCompilerExecutionError(TileInternalError):
    """The code generator failed on a kernel that type-checked."""


class TileCompilerTimeoutError(TileInternalError):
    """A kernel's compile took longer than ``ct.compiler_timeout`` allowed."""


# pykc's diagnostic kinds (diagnostics/diagnostic_kinds.def) -> cuTile's class.
_BY_KIND = {
    "static-assert": TileStaticAssertionError,
    "tile-recursion": TileRecursionError,
    "recursion": TileRecursionError,
    "invalid-syntax": TileSyntaxError,
    "syntax-error": TileSyntaxError,
    "unsupported-construct": TileSyntaxError,
    "tile-unsupported": TileUnsupportedFeatureError,
    "unsupported-option": TileUnsupportedFeatureError,
    "tile-shape": TileTypeError,
    "tile-type": TileTypeError,
    "mismatched-operand-types": TileTypeError,
    "cannot-unify": TileTypeError,
    "invalid-type": TileTypeError,
    "return-type": TileTypeError,
    "not-callable": TileTypeError,
    "not-indexable": TileTypeError,
    "unknown-attribute": TileTypeError,
    "wrong-arg-count": TileTypeError,
    "invalid-call": TileTypeError,
    "invalid-index": TileTypeError,
    "invalid-shape": TileTypeError,
    "index-out-of-range": TileValueError,
    "tile-constant": TileValueError,
    "not-constant": TileStaticEvalError,
    "not-in-loop": TileSyntaxError,
    "invalid-assignment": TileSyntaxError,
}


def tile_error(e: CompileError) -> TileError:
    """``e`` as the cuTile class its first error's kind names (TileError for the rest;
    TileCompilerExecutionError where the front end passed and code generation failed)."""
    if isinstance(e, TileError):
        return e
    kinds = [d.get("kind") for d in e.diagnostics if d.get("severity", "error") == "error"]
    cls = next((_BY_KIND[k] for k in kinds if k in _BY_KIND), None)
    if cls is None:
        cls = TileError if kinds else TileCompilerExecutionError
    out = cls(str(e), e.diagnostics, e.exit_class)
    out.__cause__ = e.__cause__
    return out
