"""The `cuda` package where none is installed: only pykc's `cuda.tile` (pykc._hook)."""
__path__ = []
