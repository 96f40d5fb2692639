"""numba.cuda.testing's helpers, so that numba-cuda's own tests and documentation examples
run unchanged on pykc (``python -m pykc run``): ``CUDATestCase`` and the ``skip_*``
decorators, answered for pykc (never the simulator; numba's CPU compiler absent)."""

from __future__ import annotations

import shutil
import unittest  # noqa: F401  (numba's tests import it from here)

import numpy as np

from . import config

__all__ = ["CUDATestCase", "skip_on_cudasim", "skip_unless_cudasim", "skip_unless_cc_50",
           "skip_unless_cc_53", "skip_unless_cc_60", "skip_unless_cc_75", "skip_unless_cc_90",
           "cc_X_or_above", "skip_if_cudadevrt_missing", "skip_on_standalone_numba_cuda",
           "skip_without_nvdisasm", "skip_with_nvdisasm", "skip_under_cuda_memcheck",
           "skip_if_external_memmgr", "skip_on_arm", "skip_on_wsl2",
           "skip_if_nvjitlink_missing", "skip_unless_conda_cudatoolkit", "xfail_unless_cudasim",
           "skip_if_cuda_includes_missing", "skip_if_curand_kernel_missing"]


class CUDATestCase(unittest.TestCase):
    """For tests that use a CUDA device."""

    FLOAT16_RTOL = np.finfo(np.float16).eps

    def setUp(self):
        pass

    def tearDown(self):
        pass


def skip_on_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(config.ENABLE_CUDASIM, reason)


def skip_unless_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipUnless(config.ENABLE_CUDASIM, reason)


def _skip(reason):
    return lambda _reason=None: unittest.skip(_reason or reason)


# numba's CPU compiler (numba.njit, ufuncs on the host) is not part of pykc.
skip_on_standalone_numba_cuda = unittest.skip("requires base numba install")
skip_unless_conda_cudatoolkit = _skip("requires a conda cudatoolkit")
skip_if_external_memmgr = lambda reason: unittest.skipIf(False, reason)  # noqa: E731
skip_under_cuda_memcheck = lambda reason: unittest.skipIf(False, reason)  # noqa: E731
skip_on_arm = lambda reason: unittest.skipIf(False, reason)  # noqa: E731
skip_on_wsl2 = lambda reason: unittest.skipIf(False, reason)  # noqa: E731
skip_if_nvjitlink_missing = lambda reason: unittest.skipIf(False, reason)  # noqa: E731


def skip_without_nvdisasm(reason):
    return unittest.skipIf(shutil.which("nvdisasm") is None, reason)


def skip_with_nvdisasm(reason):
    return unittest.skipIf(shutil.which("nvdisasm") is not None, reason)


def cc_X_or_above(major, minor):
    from . import get_current_device
    return get_current_device().compute_capability >= (major, minor)


def _cc(major, minor):
    def deco(fn):
        return unittest.skipUnless(cc_X_or_above(major, minor),
                                   f"requires cc >= {major}.{minor}")(fn)
    return deco


skip_unless_cc_50 = _cc(5, 0)
skip_unless_cc_53 = _cc(5, 3)
skip_unless_cc_60 = _cc(6, 0)
skip_unless_cc_75 = _cc(7, 5)
skip_unless_cc_90 = _cc(9, 0)


def xfail_unless_cudasim(fn):
    return unittest.expectedFailure(fn)


def skip_if_cudadevrt_missing(fn):
    return fn   # pykc links no device runtime; grid sync needs none


def skip_if_cuda_includes_missing(fn):
    return fn


def skip_if_curand_kernel_missing(fn):
    return unittest.skip("cuRAND device functions are not supported by pykc")(fn)
