"""An enum class a kernel file imports (typed_tile_sibling_enum.py): pasted in with its import."""
from enum import Enum


class AtomicOp(Enum):
    XCHG = 0
    ADD = 1

    def is_bitwise(self):
        return self in {AtomicOp.XCHG}


def host_only():
    return AtomicOp.ADD
