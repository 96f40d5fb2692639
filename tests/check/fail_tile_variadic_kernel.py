# ARGS: --diag-kinds compile %s --phase=check
# Tile kernels take named parameters (positional-only, ordinary, keyword-only), not
# `*args` or `**kwargs`.
import cuda.tile as ct


@ct.kernel
# CHECK:STDERR: fail_tile_variadic_kernel.py:[[@LINE+4]]:5: error: tile kernels take named parameters only (no `*args` or `**kwargs`) [unsupported-construct]
# CHECK:STDERR: def star(A: "float32[::1]", *rest):
# CHECK:STDERR:     ^~~~
# CHECK:STDERR:
def star(A: "float32[::1]", *rest):
    ct.store(A, index=(0,), tile=ct.zeros((16,), dtype=ct.float32))


@ct.kernel
# CHECK:STDERR: fail_tile_variadic_kernel.py:[[@LINE+4]]:5: error: tile kernels take named parameters only (no `*args` or `**kwargs`) [unsupported-construct]
# CHECK:STDERR: def starstar(A: "float32[::1]", **options):
# CHECK:STDERR:     ^~~~~~~~
# CHECK:STDERR:
def starstar(A: "float32[::1]", **options):
    ct.store(A, index=(0,), tile=ct.zeros((16,), dtype=ct.float32))
