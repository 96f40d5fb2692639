"""Tile helpers in a sibling module of tests/gpu/kernels/tile_kernels10.py (pykc pastes
them into the kernel's file with what they use from here: driver/sibling_modules.h)."""
import cuda.tile as ct

SCALE = 0.5


def _softsign(t):
    return t / (1.0 + abs(t))


def softsign_scaled(t):
    """softsign(t) * SCALE."""
    return _softsign(t) * SCALE


@ct.kernel
def not_pasted(x):
    # This module's own kernel: its importers do not get it.
    ct.store(x, index=(0,), tile=ct.zeros((16,), dtype=ct.float32))
