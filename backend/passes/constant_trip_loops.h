#pragma once
// Back-end private: the pass that gives `for i in range(start, start + C)` loops
// their constant trip count (optimize.cpp adds it after InstCombine, before the
// loop passes).
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}  // namespace llvm

namespace backend {

// For each loop whose header tests `iv < stop` (signed or unsigned) on an
// induction variable that starts at `start` and steps by 1, where `stop - start`
// simplifies to a constant C >= 0 (stop computed as start + C, the difference
// folded in modular arithmetic), the test becomes `(iv - start) <u C`. The loop
// then has a trip count ScalarEvolution can read, and LLVM unrolls small ones
// fully, as NVVM does for numba (advent day09's `for xi in range(lower, upper)`
// with `upper = lower + 25`: 0.71x numba-cuda before). The two tests agree
// whenever start + C does not wrap; where it wraps, the new one runs C times,
// which is numba's semantics (its range() computes the count stop - start).
class ConstantTripLoopsPass : public llvm::PassInfoMixin<ConstantTripLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

}  // namespace backend
