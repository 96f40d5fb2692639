"""Tile helpers imported by tests/check/sibling_helpers.py (a sibling module)."""
import cuda.tile as ct

OFFSET = 3


def _twice(t):
    return t * 2


def twice_plus(t):
    """Twice `t` plus OFFSET: uses this module's own helper and constant."""
    return _twice(t) + OFFSET


def host_only():
    return helper_module_kernel


@ct.kernel
def helper_module_kernel(x):
    # This module's own kernel: never pasted into its importers.
    ct.store(x, index=(0,), tile=ct.zeros((16,), dtype=ct.float32))


def broken(t):
    return t + not_defined_here
