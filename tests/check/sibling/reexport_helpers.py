"""A helper module of sibling_reexported_import.py: it imports BytecodeVersion from the
submodule that defines it, its importer from the package that re-exports it."""
from cuda.tile._bytecode.version import BytecodeVersion


def requires_version(version: BytecodeVersion):
    return lambda f: f


def triple(v):
    return v * 3
