# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t --link no/such/file.cu --link notes.txt
from numba import cuda


@cuda.jit("void(int32[::1])")
def k(x):
    x[0] = 1
# CHECK:STDERR: pykc: error: --link no/such/file.cu: cannot read `no/such/file.cu` to link it: No such file or directory [link-file]
# CHECK:STDERR:
# CHECK:STDERR: pykc: error: --link notes.txt: cannot link `notes.txt`: pykc links `.cu`, `.ptx`, `.ltoir`, `.cubin`, `.fatbin`, `.o` and `.a` files [invalid-link]
# CHECK:STDERR:
