#include "backend/passes/reciprocal_division.h"
#include "backend/passes/preserved.h"

#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace backend {
namespace {

// Why RN32(RN64(a * r)), with r within a few float64 ulps of 1/d, is IEEE's
// RN32(a/d) for every float32 a and d:
// - The float64 product is within 2^-51 (relative) of a/d: r's error and one
//   rounding; float32 quotients (2^-277 .. 2^277) stay inside float64's normal
//   range.
// - A float32 rounding boundary m (a midpoint between neighbours: an odd 25-bit
//   significand; or a midpoint of the subnormal grid; or the overflow
//   threshold) is never that close to a/d. a - m*d is a nonzero multiple of
//   the coarser of a's ulp and (m's ulp x d's ulp) (a/d = m exactly would need
//   d's significand to supply the 25th bit, which a 24-bit one cannot), so
//   |a/d - m| >= 2^-49 |a/d| for normal results, and for results below 2^-126
//   >= 2^-174 or a's ulp / d, both above the product's error there.
// So a/d and the product round to the same float32. Zeros, infinities and NaN
// follow from IEEE float64 arithmetic: 1/±0 = ±inf, 1/±inf = ±0, 0 * inf =
// NaN, signs multiply.
//
// r: rcp.approx.ftz.f64 (d is a float32, so never a float64 subnormal) and
// three Newton steps, each squaring the relative error (2^-16 becomes 2^-64
// before rounding), not rcp.rn.f64, whose slow path is a call that makes
// ptxas spill around it. The approximation's answers for ±0 and ±inf are
// exact and a Newton step would make them NaN, so they are kept.
llvm::Value* reciprocal(llvm::IRBuilderBase& b, llvm::Value* d64, bool usedInLoop) {
  llvm::Type* f64 = b.getDoubleTy();
  if (auto* c = llvm::dyn_cast<llvm::ConstantFP>(d64)) {
    llvm::APFloat r(1.0);
    r.divide(c->getValueAPF(), llvm::APFloat::rmNearestTiesToEven);
    return llvm::ConstantFP::get(f64, r);
  }
  llvm::Module* m = b.GetInsertBlock()->getModule();
  llvm::Value* seed = b.CreateCall(llvm::Intrinsic::getDeclaration(m, llvm::Intrinsic::nvvm_rcp_approx_ftz_d), {d64});
  llvm::Value* one = llvm::ConstantFP::get(f64, 1.0);
  llvm::Value* magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, seed);
  llvm::Value* exact = b.CreateOr(b.CreateFCmpOEQ(magnitude, llvm::ConstantFP::getInfinity(f64)),
                                  b.CreateFCmpOEQ(seed, llvm::ConstantFP::get(f64, 0.0)));
  auto newton = [&](llvm::Value* minusD, llvm::Value* y) {
    for (int step = 0; step < 3; ++step) {
      llvm::Value* e = b.CreateIntrinsic(llvm::Intrinsic::fma, {f64}, {minusD, y, one});
      y = b.CreateIntrinsic(llvm::Intrinsic::fma, {f64}, {y, e, y});
    }
    return y;
  };
  if (!usedInLoop) return b.CreateSelect(exact, seed, newton(b.CreateFNeg(d64), seed));
  // For a loop: the Newton steps run on 1 (giving 1) where the seed is exact,
  // and the result is multiplied by the seed there (by 1 elsewhere). A
  // product, not a select of two halves, ends the sequence, and ptxas then
  // keeps the reciprocal in one register pair instead of copying the halves
  // into a pair at every iteration (SIMT softmax's output loop). Straight-line
  // uses are better off with the shorter select (float16 softmax tiles lost
  // 2-3 % of bandwidth with the product on the H200, session 5).
  llvm::Value* y = newton(b.CreateFNeg(b.CreateSelect(exact, one, d64)), b.CreateSelect(exact, one, seed));
  return b.CreateFMul(y, b.CreateSelect(exact, seed, one));
}

// A float32 fdiv that must be IEEE's quotient: flags that allow an
// approximation (fast math) leave it to LLVM; `contract` and the like do not.
bool eligible(const llvm::BinaryOperator& div) {
  if (div.getOpcode() != llvm::Instruction::FDiv || !div.getType()->isFloatTy()) return false;
  llvm::FastMathFlags flags = div.getFastMathFlags();
  return !flags.allowReciprocal() && !flags.approxFunc() && !flags.allowReassoc();
}

// Whether one of `divs` runs in a loop that d (an argument or constant:
// none) is defined outside of: d's reciprocal is then used at every iteration.
bool inLoopAroundDivisor(llvm::Value* d, llvm::ArrayRef<llvm::BinaryOperator*> divs, const llvm::LoopInfo& loops) {
  auto* def = llvm::dyn_cast<llvm::Instruction>(d);
  for (const llvm::BinaryOperator* div : divs) {
    const llvm::Loop* loop = loops.getLoopFor(div->getParent());
    if (loop != nullptr && (def == nullptr || !loop->contains(def))) return true;
  }
  return false;
}

// Puts `b` where d's reciprocal goes: right after d (after the PHIs for a
// PHI), or at the entry for an argument or constant. It dominates every use
// of d.
void atDefinition(llvm::IRBuilderBase& b, llvm::Value* d, llvm::Function& function) {
  auto* def = llvm::dyn_cast<llvm::Instruction>(d);
  if (def == nullptr) {
    b.SetInsertPoint(&function.getEntryBlock(), function.getEntryBlock().getFirstInsertionPt());
  } else if (llvm::isa<llvm::PHINode>(def)) {
    b.SetInsertPoint(def->getParent(), def->getParent()->getFirstInsertionPt());
  } else {
    b.SetInsertPoint(def->getParent(), std::next(def->getIterator()));
  }
}

}  // namespace

llvm::PreservedAnalyses ReciprocalDivisionPass::run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
  if (function.isDeclaration() ||
      function.getDenormalMode(llvm::APFloat::IEEEsingle()) != llvm::DenormalMode::getIEEE()) {
    return llvm::PreservedAnalyses::all();
  }
  // Divisions grouped by divisor, in program order (deterministic output).
  llvm::MapVector<llvm::Value*, llvm::SmallVector<llvm::BinaryOperator*, 4>> byDivisor;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : block) {
      auto* div = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
      if (div != nullptr && eligible(*div)) byDivisor[div->getOperand(1)].push_back(div);
    }
  }
  if (byDivisor.empty()) return llvm::PreservedAnalyses::all();
  const llvm::LoopInfo& loops = analyses.getResult<llvm::LoopAnalysis>(function);
  bool changed = false;
  for (auto& [d, divs] : byDivisor) {
    // Computing d's reciprocal once pays for two or more divisions, or for
    // one repeated in a loop.
    bool inLoop = inLoopAroundDivisor(d, divs, loops);
    if (!llvm::isa<llvm::Constant>(d) && divs.size() < 2 && !inLoop) continue;
    llvm::IRBuilder<> b(function.getContext());
    atDefinition(b, d, function);
    llvm::Type* f64 = b.getDoubleTy();
    llvm::Value* r = reciprocal(b, b.CreateFPExt(d, f64), inLoop);
    for (llvm::BinaryOperator* div : divs) {
      b.SetInsertPoint(div);
      llvm::Value* q = b.CreateFPTrunc(b.CreateFMul(b.CreateFPExt(div->getOperand(0), f64), r), b.getFloatTy());
      q->takeName(div);
      div->replaceAllUsesWith(q);
      div->eraseFromParent();
    }
    changed = true;
  }
  return preservedUnlessChanged(changed);
}

}  // namespace backend
