"""Tile kernels print one line per block from thread 0: `ct.printf` with C conversions
(their length modifier pykc's: integers as 64-bit, floats as double), `ct.print`/`print`
with f-strings and Python format specs, a tile as `[a, b, ...]` read back from shared
memory, at most 32 values per vprintf call; `ct.assert_` agrees across the block
(bar.red.and) and traps after thread 0 prints `KERNEL:LINE: block (x, y, z): MESSAGE`.
The text is checked in tests/tile_sim (tile_kernels10.py: prints, asserts)."""
import cuda.tile as ct


@ct.kernel
def show(x: "float32[::1]", TILE: ct.Constant[int] = 8):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.printf("tile[%d]:%.5f\n", bid, tx)
    print(f"{bid:+04d} {tx.shape} 100%")


@ct.kernel
def wide(x: "int32[::1]", TILE: ct.Constant[int] = 64):
    print(ct.load(x, index=(0,), shape=(TILE,)))


@ct.kernel
def checked(c: "bool_[::1]", TILE: ct.Constant[int] = 128):
    ct.assert_(ct.load(c, index=(ct.bid(0),), shape=(TILE,)), "assert failed")
# LL: c"tile\[%lld\]:\[%\.5f, %\.5f, %\.5f, %\.5f, %\.5f, %\.5f, %\.5f, %\.5f\]\\0A\\00"
# LL: c"%\+04lld \(8,\) 100%%\\0A\\00"
# LL: c"checked:25: block \(%u, %u, %u\): %s\\0A\\00"|c"%s:%u: block \(%u, %u, %u\): %s\\0A\\00"
# PTX-IN show: call\.uni[\s\S]*vprintf
# PTX-IN wide: (call\.uni[\s\S]*vprintf[\s\S]*){2}
# PTX-IN checked: bar\.red\.and\.pred
# PTX-IN checked: trap;
