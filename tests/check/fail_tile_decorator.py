# ARGS: --diag-kinds compile %s --phase=check
# `@ct.kernel` options, and a Constant parameter with neither a default nor `--const`.
import cuda.tile as ct


# CHECK:STDERR: fail_tile_decorator.py:[[@LINE+4]]:12: error: `num_ctas` must be an integer constant or `ct.ByTarget(sm_XX=N, ..., default=N)` [invalid-decorator]
# CHECK:STDERR: @ct.kernel(num_ctas=ct.ByTarget(sm_100=2.5), occupancy=ct.ByTarget(sm_90=2, default=1))
# CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@ct.kernel(num_ctas=ct.ByTarget(sm_100=2.5), occupancy=ct.ByTarget(sm_90=2, default=1))
def m(a: "float32[::1]"):
    pass


# CHECK:STDERR: fail_tile_decorator.py:[[@LINE+4]]:12: error: `num_worker_warps` is 4 or 8, found 6 [invalid-decorator]
# CHECK:STDERR: @ct.kernel(num_worker_warps=6)
# CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@ct.kernel(num_worker_warps=6)
def warps(a: "float32[::1]"):
    pass


# CHECK:STDERR: fail_tile_decorator.py:[[@LINE+8]]:12: error: unknown `ct.kernel` option `latency`; known: num_ctas, occupancy, opt_level, num_worker_warps [invalid-decorator]
# CHECK:STDERR: @ct.kernel(latency=3, occupancy=1.5)
# CHECK:STDERR:            ^~~~~~~~~
# CHECK:STDERR:
# CHECK:STDERR: fail_tile_decorator.py:[[@LINE+4]]:23: error: `occupancy` must be an integer constant or `ct.ByTarget(sm_XX=N, ..., default=N)` [invalid-decorator]
# CHECK:STDERR: @ct.kernel(latency=3, occupancy=1.5)
# CHECK:STDERR:                       ^~~~~~~~~~~~~
# CHECK:STDERR:
@ct.kernel(latency=3, occupancy=1.5)
# CHECK:STDERR: fail_tile_decorator.py:[[@LINE+4]]:26: error: Constant parameter `T` of `k` has no value: give it a default or `--const T=VALUE` [tile-constant]
# CHECK:STDERR: def k(a: "float32[::1]", T: ct.Constant[int]):
# CHECK:STDERR:                          ^~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
def k(a: "float32[::1]", T: ct.Constant[int]):
    pass

