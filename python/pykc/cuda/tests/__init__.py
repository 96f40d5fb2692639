"""numba.cuda.tests under pykc: only its ``support`` helpers (see pykc.cuda.testing)."""
