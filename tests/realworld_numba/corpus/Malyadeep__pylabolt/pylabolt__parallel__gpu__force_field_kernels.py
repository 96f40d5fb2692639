# Source: https://github.com/Malyadeep/pylabolt/blob/1872e9dbe6f8ac06386556b7feb9fceb0c317691/pylabolt/parallel/gpu/force_field_kernels.py
# Commit: 1872e9dbe6f8ac06386556b7feb9fceb0c317691; licence: BSD-3-Clause (pylabolt's LICENSE). Unchanged below this header.
from numba import cuda


@cuda.jit
def compute_gravity_force(
    size,
    solid,
    ghost_node,
    density,
    force_field,
    gravity
):
    """
    Compute local gravity force acting on fluid
    Args:

    Returns:

    """
    ind = cuda.grid(1)
    if ind < size:
        if not solid[ind] and not ghost_node[ind]:
            density_local = density[ind]
            force_field[ind, 0] = density_local * gravity[0]
            force_field[ind, 1] = density_local * gravity[1]
