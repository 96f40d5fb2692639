"""A tile kernel for `pykc header`: its Constant is compiled in, its block is pykc's."""
import cuda.tile as ct


@ct.kernel
def vector_add(a: "float32[::1]", b: "float32[::1]", c: "float32[::1]",
               tile_size: ct.Constant[int] = 1024):
    pid = ct.bid(0)
    a_tile = ct.load(a, index=(pid,), shape=(tile_size,))
    b_tile = ct.load(b, index=(pid,), shape=(tile_size,))
    ct.store(c, index=(pid,), tile=a_tile + b_tile)
