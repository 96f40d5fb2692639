# ARGS: --arch sm_90
# PTX-IN producer: griddepcontrol\.launch_dependents;
# PTX-NOT-IN producer: griddepcontrol\.wait
# PTX-IN consumer: griddepcontrol\.wait;
# PTX-NOT-IN consumer: griddepcontrol\.launch_dependents
"""Programmatic dependent launch (cuTile's test_pdl): `griddepcontrol` on sm_90 (on sm_80,
which has no PDL, both calls compile to nothing: tile_pdl_sm80.py)."""
import cuda.tile as ct


@ct.kernel
def producer(a: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    ct.grid_dependency_control_launch_dependents()
    t = ct.load(a, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=t + 1)


@ct.kernel
def consumer(b: "float32[::1]", produced: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    t = ct.load(b, index=(bid,), shape=(32,))
    ct.grid_dependency_control_wait()
    p = ct.load(produced, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=p + t)
