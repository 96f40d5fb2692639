# ARGS: --diag-kinds compile %s --phase=check
"""Decorators of host code are the host's business: pykc says nothing of `@lru_cache`,
`@dataclass` or `@pytest.mark...` (issue 21 item 1), and warns only where a decorator
sits on a kernel, whose function pykc compiles as written."""
import dataclasses
import functools

import pytest
from numba import cuda


@functools.lru_cache(maxsize=None)
def table(n):
    return [i * i for i in range(n)]


@dataclasses.dataclass
class Config:
    n: int = 4


@pytest.mark.parametrize("n", [1, 2])
def test_something(n):
    assert n


def traced(f):
    return f


# CHECK:STDERR: host_decorators.py:[[@LINE+4]]:2: warning: decorator ignored: pykc only knows `cuda.jit` [invalid-decorator]
# CHECK:STDERR: @traced
# CHECK:STDERR:  ^~~~~~
# CHECK:STDERR:
@traced
@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1
