# ARGS: --diag-kinds compile %s --phase=check
# Tile kernel parameters: annotate every non-Constant one or none (then `--sig`), a
# Constant default is a number; assigning a Constant rebinds the name (Python's rule), but
# not inside a run-time loop or branch.
import cuda.tile as ct


@ct.kernel
# CHECK:STDERR: fail_tile_params.py:[[@LINE+4]]:5: error: annotate every non-Constant parameter of `half_typed` or none [invalid-signature]
# CHECK:STDERR: def half_typed(a: "float32[::1]", b, T: ct.Constant[int] = 16):
# CHECK:STDERR:     ^~~~~~~~~~
# CHECK:STDERR:
def half_typed(a: "float32[::1]", b, T: ct.Constant[int] = 16):
    pass


@ct.kernel
# CHECK:STDERR: fail_tile_params.py:[[@LINE+4]]:58: error: the default of Constant parameter `T` must be a number constant [invalid-signature]
# CHECK:STDERR: def bad_default(a: "float32[::1]", T: ct.Constant[int] = "16"):
# CHECK:STDERR:                                                          ^~~~
# CHECK:STDERR:
def bad_default(a: "float32[::1]", T: ct.Constant[int] = "16"):
    pass


@ct.kernel
# CHECK:STDERR: fail_tile_params.py:[[@LINE+4]]:5: error: tile kernel `untyped` has no types: annotate its parameters (`a: "float32[::1]"`) or give `--sig 'untyped(...)'` with the types of its non-Constant parameters [no-signature]
# CHECK:STDERR: def untyped(a, T: ct.Constant[int] = 16):
# CHECK:STDERR:     ^~~~~~~
# CHECK:STDERR:
def untyped(a, T: ct.Constant[int] = 16):
    pass


@ct.kernel
def assigns(a: "float32[::1]", n: "int32", T: ct.Constant[int] = 16):
    T = 3
    if n > 0:
        U = T
    for i in range(n):
        V = i


@ct.kernel
def assigns_in_branch(a: "float32[::1]", n: "int32", T: ct.Constant[int] = 16):
    if n > 0:
        # CHECK:STDERR: fail_tile_params.py:[[@LINE+4]]:9: error: cannot assign to Constant parameter `T` inside a run-time loop or branch: give the value a name of its own [invalid-assignment]
        # CHECK:STDERR:         T = a.shape[0]
        # CHECK:STDERR:         ^
        # CHECK:STDERR:
        T = a.shape[0]
