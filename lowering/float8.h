#pragma once
// Conversions between the 8-bit floats (frontend::FloatFormat F8E4M3, F8E5M2,
// F8E8M0; stored as i8) and float32, in integer and float operations every
// NVIDIA GPU runs (no cvt.e4m3x2 of sm_89): the same bits on sm_80 and sm_90.
//
// To float32: exact (every 8-bit float is a float32). From float32: round to
// nearest even, saturating to the largest finite value as PTX's
// `cvt.rn.satfinite` does (infinities too); NaN stays NaN. E8M0 (an unsigned
// power of two) rounds the exponent up when the value is not a power of two, as
// block scales are chosen (`cvt.rp.satfinite.ue8m0x2.f32`), from the value's
// magnitude; zero gives 2^-127, NaN the NaN pattern 0xFF. F4E2M1 (`float4_e2m1fn`,
// one code per byte, low nibble) rounds to nearest even and saturates at +-6; it has
// no NaN, and NaN gives a zero of the opposite sign, as ml_dtypes converts it.
#include <llvm/IR/IRBuilder.h>

#include "sema/types.h"

namespace lowering {

llvm::Value* float8ToFloat(llvm::IRBuilderBase& b, llvm::Value* byte, frontend::FloatFormat format);
llvm::Value* floatToFloat8(llvm::IRBuilderBase& b, llvm::Value* value, frontend::FloatFormat format);
// The same rounding on the host, for constants: the 8-bit code of `value`
// (first rounded to float32, as the device code converts float32).
uint8_t float8Code(double value, frontend::FloatFormat format);

}  // namespace lowering
