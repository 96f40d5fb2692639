#include "lowering/uniform_division.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace lowering {

// y64 ~ 1/den once; per element RN32(RN64(a * y64)).
//
// Why this is IEEE's quotient RN32(a/den) for every float32 a and den: the
// float64 product is within 2^-51 of a/den (y64 within a few ulps, one
// rounding in the product; float32 quotients stay far inside
// float64's normal range). A float32 rounding boundary m (a midpoint between
// neighbours, with an odd 25-bit significand; or one on the subnormal grid)
// is never that close to a/den: a - m*den is a nonzero multiple of the
// coarser of a's ulp and m's ulp times den's ulp, which puts |a/den - m| at
// least 2^-49 * |a/den| for normal results and 2^-174 (or a's ulp / den)
// below 2^-126, both above the product's error. So both round alike.
// Zeros, infinities and NaN follow from IEEE float64 arithmetic (1/0 = inf,
// 0 * inf = NaN, signs multiply). Checked bit for bit against NumPy in
// tests/tile_sim and on the GPU (tests/gpu/cases/tile_cases2.py).
//
// y64 comes from rcp.approx.ftz.f64 and three Newton steps (each squares the
// relative error: from a seed only 2^-16 close, 2^-64 before rounding), not
// from rcp.rn.f64, whose slow path is a call that makes ptxas spill around
// it. 1/±0 = ±inf and 1/±inf = ±0 are the approximation's own exact answers
// (a Newton step would turn them into NaN); NaN stays NaN.
llvm::Value* reciprocalF64(llvm::IRBuilderBase& b, llvm::Value* d) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Module* m = b.GetInsertBlock()->getModule();
  llvm::Value* seed = b.CreateCall(llvm::Intrinsic::getDeclaration(m, llvm::Intrinsic::nvvm_rcp_approx_ftz_d), {d});
  llvm::Value* one = llvm::ConstantFP::get(f64, 1.0);
  llvm::Value* minusD = b.CreateFNeg(d);
  llvm::Value* y = seed;
  for (int step = 0; step < 3; ++step) {
    llvm::Value* e = b.CreateIntrinsic(llvm::Intrinsic::fma, {f64}, {minusD, y, one});
    y = b.CreateIntrinsic(llvm::Intrinsic::fma, {f64}, {y, e, y});
  }
  llvm::Value* magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, seed);
  llvm::Value* exact = b.CreateOr(b.CreateFCmpOEQ(magnitude, llvm::ConstantFP::getInfinity(f64)),
                                  b.CreateFCmpOEQ(seed, llvm::ConstantFP::get(f64, 0.0)));
  return b.CreateSelect(exact, seed, y);
}

std::vector<llvm::Value*> divideByUniform(llvm::IRBuilderBase& b, llvm::ArrayRef<llvm::Value*> nums,
                                          llvm::Value* den) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Value* y64 = reciprocalF64(b, b.CreateFPExt(den, f64));
  std::vector<llvm::Value*> out;
  out.reserve(nums.size());
  for (llvm::Value* a : nums) out.push_back(b.CreateFPTrunc(b.CreateFMul(b.CreateFPExt(a, f64), y64), b.getFloatTy()));
  return out;
}

}  // namespace lowering
