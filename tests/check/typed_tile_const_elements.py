# ARGS: --diag-kinds compile %s --phase=check --dump-typed --const cfg[0]=8 --const pair[1]=16 --const nested.cfg[0][0]=4 --sig partial(int32[::1],int32[::1],UniTuple(int32,2)) --sig arrays(Tuple(float32[::1],int32),float32[::1]) --sig nested(int32[::1],int32[::1],Tuple(UniTuple(int32,2),int32))
# Constant elements of tuple parameters (cuTile's test_tuple_arguments): in
# `cfg: tuple[ct.Constant[int], int]` element 0 is a compile-time constant given with
# `--const cfg[0]=8` (`KERNEL.cfg[0][0]=4` for one kernel, nested tuples too); the tuple is
# still passed whole, its other elements run-time values.
import cuda.tile as ct
import torch


@ct.kernel
def partial(a, out, cfg: tuple[ct.Constant[int], int]):
    t = ct.load(a, (0,), (cfg[0],))
    ct.store(out, (0,), t + cfg[1])


@ct.kernel
def arrays(pair: tuple[torch.Tensor, ct.Constant[int]], out):
    ct.store(out, (0,), ct.load(pair[0], (0,), (pair[1],)))


@ct.kernel
def nested(a, out, cfg: tuple[tuple[ct.Constant[int], int], int]):
    t = ct.load(a, (0,), (cfg[0][0],))
    ct.static_assert(t.shape[0] == 4)
    ct.store(out, (0,), t + cfg[0][1] + cfg[1])
# CHECK:STDOUT: kernel partial partial__i32a1C_i32a1C_t2i32i32__Kcfg$005B0$005D_8 void(int32[::1], int32[::1], Tuple(int32, int32), cfg[0]=8)
# CHECK:STDOUT:   a: array(int32, 1d, C)
# CHECK:STDOUT:   cfg: UniTuple(int32 x 2)
# CHECK:STDOUT:   out: array(int32, 1d, C)
# CHECK:STDOUT:   t: tile(int32, (8,))
# CHECK:STDOUT: kernel arrays arrays__t2f32a1Ci32_f32a1C__Kpair$005B1$005D_16 void(Tuple(float32[::1], int32), float32[::1], pair[1]=16)
# CHECK:STDOUT:   out: array(float32, 1d, C)
# CHECK:STDOUT:   pair: Tuple(array(float32, 1d, C), int32)
# CHECK:STDOUT: kernel nested nested__i32a1C_i32a1C_t2t2i32i32i32__Kcfg$005B0$005D$005B0$005D_4 void(int32[::1], int32[::1], Tuple(Tuple(int32, int32), int32), cfg[0][0]=4)
# CHECK:STDOUT:   a: array(int32, 1d, C)
# CHECK:STDOUT:   cfg: Tuple(UniTuple(int32 x 2), int32)
# CHECK:STDOUT:   out: array(int32, 1d, C)
# CHECK:STDOUT:   t: tile(int32, (4,))
