"""pytest inside ``python -m pykc run`` (so that ``import cuda.tile`` and ``from numba import
cuda`` give pykc's modules), for run_realworld.py: ``python -m pykc run
tests/gpu/jit/run_pytest.py FILE [pytest options]``. Its exit status is pytest's."""

import sys

import pytest

if __name__ == "__main__":
    # -p no:cacheprovider: nothing written beside other people's files.
    sys.exit(pytest.main(["-q", "-rfE", "-p", "no:cacheprovider", *sys.argv[1:]]))
