# ARGS: --diag-kinds compile %s --no-cache
"""A module of device functions only (a library that kernels in other files import, as the
FP-emulation tutorial's emulation_utils.py): no kernel to build, and the error says where
its functions are compiled instead."""
import numpy as np
from numba import cuda


@cuda.jit(device=True, forceinline=True)
def extract_sign(x: np.float64) -> np.int32:
    return np.int32(x < 0)


@cuda.jit(device=True)
def twice(x):
    return 2 * x
# CHECK:STDERR: pykc: error: no kernels in `fail_device_functions_only.py`: it defines 2 device functions (`extract_sign`...) and no kernel; pykc compiles a device function where a kernel calls it: compile the file whose kernels import it (`from fail_device_functions_only import extract_sign`, with `--python-path` for its folder)
