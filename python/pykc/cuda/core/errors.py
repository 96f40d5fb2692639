"""numba.cuda.core.errors under pykc: numba's error classes that programs catch. pykc
raises CompileError for every compile-time error, typing errors included."""

from ..._compiler import CompileError

NumbaError = CompileError
TypingError = CompileError
LoweringError = CompileError
UnsupportedError = CompileError
CompilerError = CompileError


class NumbaWarning(Warning):
    pass


class NumbaPerformanceWarning(NumbaWarning):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass
