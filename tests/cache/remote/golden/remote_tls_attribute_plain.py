# ARGS: compile %s --remote http://127.0.0.1:8080/p|ca-file=/etc/ssl/ca.pem
# EXIT: 2
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0
# CHECK:STDERR: pykc: error: --remote http://127.0.0.1:8080/p|ca-file=/etc/ssl/ca.pem: `ca-file` needs TLS (https:// or rediss://)
