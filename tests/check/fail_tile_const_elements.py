# ARGS: --diag-kinds compile %s --phase=check --const short.cfg[0]=8 --const kinds.cfg[0]=8 --sig missing(int32[::1],UniTuple(int32,2)) --sig short(int32[::1],int32) --sig kinds(int32[::1],Tuple(float32[::1],int32))
# Constant elements of tuple parameters that cannot be compiled: no value given, a
# signature whose type has no such element, an element that is not a number.
import cuda.tile as ct


@ct.kernel
# CHECK:STDERR: fail_tile_const_elements.py:[[@LINE+4]]:16: error: Constant element `cfg[0]` of `missing` has no value: give `--const cfg[0]=VALUE` (the JIT reads it from the argument) [invalid-signature]
# CHECK:STDERR: def missing(a, cfg: tuple[ct.Constant[int], int]):
# CHECK:STDERR:                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
def missing(a, cfg: tuple[ct.Constant[int], int]):
    ct.store(a, (0,), ct.arange(cfg[0], dtype=ct.int32))


@ct.kernel
# CHECK:STDERR: fail_tile_const_elements.py:[[@LINE+4]]:5: error: Constant `cfg[0]` names no element of `cfg`'s type `int32` [invalid-signature]
# CHECK:STDERR: def short(a, cfg: tuple[ct.Constant[int], int]):
# CHECK:STDERR:     ^~~~~
# CHECK:STDERR:
def short(a, cfg: tuple[ct.Constant[int], int]):
    ct.store(a, (0,), ct.arange(8, dtype=ct.int32))


@ct.kernel
# CHECK:STDERR: fail_tile_const_elements.py:[[@LINE+4]]:5: error: Constant `cfg[0]` must be a number element, found `array(float32, 1d, C)` given `8` [invalid-signature]
# CHECK:STDERR: def kinds(a, cfg: tuple[ct.Constant[int], int]):
# CHECK:STDERR:     ^~~~~
# CHECK:STDERR:
def kinds(a, cfg: tuple[ct.Constant[int], int]):
    ct.store(a, (0,), ct.arange(8, dtype=ct.int32))
