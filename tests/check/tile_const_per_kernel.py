# ARGS: --diag-kinds compile %s --phase=check --dump-typed --const copy.T=64 --const T=128 --const T=32
# `--const KERNEL.NAME=VALUE` gives kernel KERNEL its own values; the others
# take the file-wide NAME=VALUE ones (here two specialisations of `scale`).
import cuda.tile as ct


@ct.kernel
def copy(a: "float32[::1]", T: ct.Constant[int] = 16):
    ct.store(a, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))


@ct.kernel
def scale(a: "float32[::1]", T: ct.Constant[int] = 16):
    t = ct.load(a, index=(ct.bid(0),), shape=(T,))
    ct.store(a, index=(ct.bid(0),), tile=t * 2.0)
# CHECK:STDOUT: kernel copy copy__f32a1C__KT_64 void(float32[::1], T=64)
# CHECK:STDOUT:   T: int64
# CHECK:STDOUT:   a: array(float32, 1d, C)
# CHECK:STDOUT: kernel scale scale__f32a1C__KT_128 void(float32[::1], T=128)
# CHECK:STDOUT:   T: int64
# CHECK:STDOUT:   a: array(float32, 1d, C)
# CHECK:STDOUT:   t: tile(float32, (128,))
# CHECK:STDOUT: kernel scale scale__f32a1C__KT_32 void(float32[::1], T=32)
# CHECK:STDOUT:   T: int64
# CHECK:STDOUT:   a: array(float32, 1d, C)
# CHECK:STDOUT:   t: tile(float32, (32,))
