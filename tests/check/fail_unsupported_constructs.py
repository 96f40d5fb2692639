# ARGS: --diag-kinds compile %s --phase=check --dump-typed
from numba import cuda


@cuda.jit("void(float32[::1])")
def k(x):
    # CHECK:STDERR: fail_unsupported_constructs.py:[[@LINE+4]]:5: error: `try` is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     try:
    # CHECK:STDERR:     ^~~~
    # CHECK:STDERR:
    try:
        x[0] = 1
    except Exception:
        pass
    # CHECK:STDERR: fail_unsupported_constructs.py:[[@LINE+4]]:5: error: `with` is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     with open("f") as f:
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    with open("f") as f:
        pass
    # CHECK:STDERR: fail_unsupported_constructs.py:[[@LINE+4]]:9: error: a comprehension is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     y = [v for v in range(3)]
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    y = [v for v in range(3)]
    # CHECK:STDERR: fail_unsupported_constructs.py:[[@LINE+4]]:9: error: `lambda` is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     z = lambda q: q
    # CHECK:STDERR:         ^~~~~~~~~~~
    # CHECK:STDERR:
    z = lambda q: q
    print(x[0])
    x[1:3] += 1
    # CHECK:STDERR: fail_unsupported_constructs.py:[[@LINE+4]]:5: error: `global` is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     global G
    # CHECK:STDERR:     ^~~~~~~~
    # CHECK:STDERR:
    global G
    # CHECK:STDERR: fail_unsupported_constructs.py:[[@LINE+4]]:12: error: an f-string is not supported in kernels [unsupported-construct]
    # CHECK:STDERR:     x[0] = f"{x}"
    # CHECK:STDERR:            ^~~~~~
    # CHECK:STDERR:
    x[0] = f"{x}"
