#pragma once
// Back-end private: float32 divisions by one value through its float64
// reciprocal (optimize.cpp adds the pass on GPUs with full-rate float64).
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}  // namespace llvm

namespace backend {

// Rewrites `fdiv float %a, %d` (without arcp/afn/reassoc, IEEE float32
// denormals) as
// `fptrunc(fmul(fpext %a, %r))`, where %r is %d's float64 reciprocal, computed
// once right after %d (rcp.approx.ftz.f64 and three Newton steps; a constant
// divisor's is folded), when that pays: %d divides at least twice, or inside a
// loop that %d is defined outside of. The result is IEEE's correctly rounded
// quotient for every input, bit for bit what `div.rn.f32` gives (the argument
// is in reciprocal_division.cpp), in three instructions and no branch where
// div.rn.f32 is a reciprocal, Newton steps, a range check and a branch to a
// slow-path call per division. Worth it only where float64 runs at half the
// float32 rate (sm_80, sm_90); optimize.cpp adds it there.
class ReciprocalDivisionPass : public llvm::PassInfoMixin<ReciprocalDivisionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

}  // namespace backend
