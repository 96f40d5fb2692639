#include "lowering/float8.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace lowering {

using frontend::FloatFormat;

namespace {

llvm::Value* u32(llvm::IRBuilderBase& b, uint32_t v) { return b.getInt32(v); }

llvm::Value* asFloat(llvm::IRBuilderBase& b, llvm::Value* bits) { return b.CreateBitCast(bits, b.getFloatTy()); }

// Round-to-nearest-even of a normal float32 magnitude `a` (bits) to `keep`
// mantissa bits, re-biased from float32's 127 to `bias`: the 8-bit code (or more,
// for values past the format's range; the caller saturates).
llvm::Value* roundNormal(llvm::IRBuilderBase& b, llvm::Value* a, unsigned keep, unsigned bias) {
  unsigned drop = 23 - keep;
  llvm::Value* odd = b.CreateAnd(b.CreateLShr(a, drop), u32(b, 1));
  llvm::Value* r = b.CreateLShr(b.CreateAdd(b.CreateAdd(a, u32(b, (1u << (drop - 1)) - 1)), odd), drop);
  return b.CreateSub(r, u32(b, (127 - bias) << keep));
}

// A denormal code: the magnitude times 2^scaleLog2, rounded to an integer (even on ties).
llvm::Value* roundDenormal(llvm::IRBuilderBase& b, llvm::Value* a, int scaleLog2) {
  llvm::Value* scaled = b.CreateFMul(asFloat(b, a), llvm::ConstantFP::get(b.getFloatTy(), std::ldexp(1.0, scaleLog2)));
  llvm::Value* q = b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, scaled);
  return b.CreateFPToUI(q, b.getInt32Ty());
}

}  // namespace

llvm::Value* float8ToFloat(llvm::IRBuilderBase& b, llvm::Value* byte, FloatFormat format) {
  llvm::Value* u = b.CreateZExt(byte, b.getInt32Ty());
  switch (format) {
    case FloatFormat::F8E5M2: {
      // The upper byte of a float16.
      llvm::Value* half = b.CreateBitCast(b.CreateTrunc(b.CreateShl(u, 8), b.getInt16Ty()), b.getHalfTy());
      return b.CreateFPExt(half, b.getFloatTy());
    }
    case FloatFormat::F4E2M1: {
      // s.ee.m: e == 0 gives m * 0.5, else (1 + m/2) * 2^(e-1).
      llvm::Value* sign = b.CreateShl(b.CreateAnd(u, u32(b, 8)), 28);
      llvm::Value* e = b.CreateAnd(b.CreateLShr(u, 1), u32(b, 3));
      llvm::Value* m = b.CreateAnd(u, u32(b, 1));
      llvm::Value* normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, u32(b, 126)), 23), b.CreateShl(m, 22));
      llvm::Value* tiny = b.CreateMul(m, u32(b, 0x3F000000u));  // 0.5 or 0
      llvm::Value* bits = b.CreateSelect(b.CreateICmpEQ(e, u32(b, 0)), tiny, normal);
      return asFloat(b, b.CreateOr(bits, sign));
    }
    case FloatFormat::F8E8M0: {
      llvm::Value* bits = b.CreateShl(u, 23);
      bits = b.CreateSelect(b.CreateICmpEQ(u, u32(b, 0)), u32(b, 0x00400000u), bits);  // 2^-127
      bits = b.CreateSelect(b.CreateICmpEQ(u, u32(b, 0xFF)), u32(b, 0x7FC00000u), bits);
      return asFloat(b, bits);
    }
    default: {  // F8E4M3
      llvm::Value* sign = b.CreateShl(b.CreateAnd(u, u32(b, 0x80)), 24);
      llvm::Value* e = b.CreateAnd(b.CreateLShr(u, 3), u32(b, 0xF));
      llvm::Value* m = b.CreateAnd(u, u32(b, 7));
      llvm::Value* normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, u32(b, 120)), 23), b.CreateShl(m, 20));
      llvm::Value* tiny = b.CreateFMul(b.CreateUIToFP(m, b.getFloatTy()), llvm::ConstantFP::get(b.getFloatTy(), 0x1p-9));
      llvm::Value* bits = b.CreateSelect(b.CreateICmpEQ(e, u32(b, 0)), b.CreateBitCast(tiny, b.getInt32Ty()), normal);
      bits = b.CreateSelect(b.CreateICmpEQ(b.CreateAnd(u, u32(b, 0x7F)), u32(b, 0x7F)), u32(b, 0x7FC00000u), bits);
      return asFloat(b, b.CreateOr(bits, sign));
    }
  }
}

llvm::Value* floatToFloat8(llvm::IRBuilderBase& b, llvm::Value* value, FloatFormat format) {
  llvm::Value* bits = b.CreateBitCast(value, b.getInt32Ty());
  llvm::Value* a = b.CreateAnd(bits, u32(b, 0x7FFFFFFFu));
  llvm::Value* nan = b.CreateICmpUGT(a, u32(b, 0x7F800000u));
  llvm::Value* code;
  if (format == FloatFormat::F8E8M0) {
    // Unsigned powers of two, rounded up: the exponent, plus one for a fraction.
    llvm::Value* e = b.CreateLShr(a, 23);
    llvm::Value* frac = b.CreateICmpNE(b.CreateAnd(a, u32(b, 0x7FFFFF)), u32(b, 0));
    llvm::Value* up = b.CreateAdd(e, b.CreateZExt(frac, b.getInt32Ty()));
    // Below 2^-126: 2^-127 (code 0) up to it, else 2^-126.
    llvm::Value* tiny = b.CreateSelect(b.CreateICmpULE(a, u32(b, 0x00400000u)), u32(b, 0), u32(b, 1));
    code = b.CreateSelect(b.CreateICmpEQ(e, u32(b, 0)), tiny, up);
    code = b.CreateSelect(b.CreateICmpUGT(code, u32(b, 0xFE)), u32(b, 0xFE), code);
    code = b.CreateSelect(nan, u32(b, 0xFF), code);
    return b.CreateTrunc(code, b.getInt8Ty());
  }
  if (format == FloatFormat::F4E2M1) {
    // Round to nearest even, saturating at +-6; NaN (no such code) gives a zero of the
    // opposite sign, as ml_dtypes converts it.
    llvm::Value* normal = roundNormal(b, a, 1, 1);
    llvm::Value* denormal = roundDenormal(b, a, 1);
    code = b.CreateSelect(b.CreateICmpULT(a, u32(b, 0x3F800000u)), denormal, normal);
    code = b.CreateSelect(b.CreateICmpUGT(code, u32(b, 7)), u32(b, 7), code);
    code = b.CreateSelect(nan, u32(b, 0), code);
    llvm::Value* sign = b.CreateLShr(b.CreateAnd(bits, u32(b, 0x80000000u)), 28);
    sign = b.CreateSelect(nan, b.CreateXor(sign, u32(b, 8)), sign);
    return b.CreateTrunc(b.CreateOr(code, sign), b.getInt8Ty());
  }
  bool e4 = format == FloatFormat::F8E4M3;
  // Smallest normal (2^-6, 2^-14), mantissa bits, bias, largest finite code, NaN code.
  uint32_t minNormal = e4 ? 0x3C800000u : 0x38800000u;
  unsigned keep = e4 ? 3 : 2, bias = e4 ? 7 : 15;
  uint32_t maxCode = e4 ? 0x7E : 0x7B;
  llvm::Value* normal = roundNormal(b, a, keep, bias);
  llvm::Value* denormal = roundDenormal(b, a, e4 ? 9 : 16);
  code = b.CreateSelect(b.CreateICmpULT(a, u32(b, minNormal)), denormal, normal);
  code = b.CreateSelect(b.CreateICmpUGT(code, u32(b, maxCode)), u32(b, maxCode), code);
  code = b.CreateSelect(nan, u32(b, 0x7F), code);
  llvm::Value* sign = b.CreateLShr(b.CreateAnd(bits, u32(b, 0x80000000u)), 24);
  return b.CreateTrunc(b.CreateOr(code, sign), b.getInt8Ty());
}

uint8_t float8Code(double value, FloatFormat format) {
  float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t a = bits & 0x7FFFFFFFu;
  bool nan = a > 0x7F800000u;
  if (format == FloatFormat::F8E8M0) {
    if (nan) return 0xFF;
    uint32_t e = a >> 23;
    uint32_t code = e == 0 ? (a <= 0x00400000u ? 0u : 1u) : e + ((a & 0x7FFFFF) != 0 ? 1u : 0u);
    return static_cast<uint8_t>(std::min<uint32_t>(code, 0xFE));
  }
  if (format == FloatFormat::F4E2M1) {
    uint32_t sign = (bits >> 28) & 8;
    if (nan) return static_cast<uint8_t>(sign ^ 8);
    uint32_t code;
    if (a < 0x3F800000u) {
      float mag;
      std::memcpy(&mag, &a, 4);
      code = static_cast<uint32_t>(std::nearbyint(static_cast<double>(mag) * 2.0));
    } else {
      code = ((a + (1u << 21) - 1 + ((a >> 22) & 1)) >> 22) - (126u << 1);
    }
    return static_cast<uint8_t>(std::min(code, 7u) | sign);
  }
  bool e4 = format == FloatFormat::F8E4M3;
  uint32_t minNormal = e4 ? 0x3C800000u : 0x38800000u;
  unsigned keep = e4 ? 3 : 2, bias = e4 ? 7 : 15, drop = 23 - keep;
  uint32_t maxCode = e4 ? 0x7E : 0x7B;
  uint32_t code;
  if (a < minNormal) {
    float mag;
    std::memcpy(&mag, &a, 4);
    code = static_cast<uint32_t>(std::nearbyint(static_cast<double>(mag) * std::ldexp(1.0, e4 ? 9 : 16)));
  } else {
    uint32_t r = (a + (1u << (drop - 1)) - 1 + ((a >> drop) & 1)) >> drop;
    code = r - ((127 - bias) << keep);
  }
  code = std::min(code, maxCode);
  if (nan) code = 0x7F;
  return static_cast<uint8_t>(code | ((bits >> 24) & 0x80));
}

}  // namespace lowering
