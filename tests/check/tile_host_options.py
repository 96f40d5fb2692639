# ARGS: --diag-kinds compile %s --phase=check
"""A `ct.kernel` tuning option computed on the host (cuTile's test_print: `opt_level=_OPT_LEVEL`
with `_OPT_LEVEL = 0 if get_tileiras_version() < ... else ...`) changes no result: pykc warns
and keeps its default instead of refusing the kernel. A constant that is not an integer is
still an error (tests/check/fail_tile_decorator.py)."""
import cuda.tile as ct


def get_tileiras_version():
    return (13, 1)


_OPT_LEVEL = 0 if get_tileiras_version() < (13, 2) else 3


# CHECK:STDERR: tile_host_options.py:[[@LINE+4]]:12: warning: `opt_level` is computed on the host, not a compile-time constant: pykc ignores it and uses its default [unsupported-option]
# CHECK:STDERR: @ct.kernel(opt_level=_OPT_LEVEL)
# CHECK:STDERR:            ^~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
@ct.kernel(opt_level=_OPT_LEVEL)
def scale(x: "float32[::1]", TILE: ct.Constant[int] = 64):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=t * 2.0)
