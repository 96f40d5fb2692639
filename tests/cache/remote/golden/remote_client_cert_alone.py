# ARGS: compile %s --remote https://cache.example/pykc|client-cert=/etc/pykc/client.pem
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote https://cache.example/pykc|client-cert=/etc/pykc/client.pem: `client-cert` and `client-key` go together
