#pragma once
// Back-end private: the pass that issues each block's global loads early
// (optimize.cpp adds it at the end of the pipeline), and the codegen pass gate
// that keeps them there (ptx.cpp).
#include <llvm/IR/OptBisect.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}  // namespace llvm

namespace backend {

// Moves every simple (non-volatile, non-atomic) load from global or generic
// memory up within its block, to just after the last earlier instruction that
// may write memory or has other side effects (or after the PHIs), together
// with the side-effect-free instructions of the same block that compute its
// address. Loads keep their order among themselves. Plain stores of an
// alias-versioned body (`!alias.scope`, backend/passes/alias_versioning.h) are no
// such instruction for the loads alias analysis proves apart from them: an
// unrolled no-alias grid-stride loop issues all its loads before its stores.
// Why: ptxas schedules within straight-line code, and long-latency
// expansions such as `sqrt.rn.f64` and `div.rn.f64` become branches and
// slow-path calls in SASS that no load moves across. In black_scholes the
// source loads t[i] first and s[i], x[i] after `sqrt(t[i])`, so s and x were
// only issued after sqrt's branch; with the three loads together the kernel
// runs at nvcc's speed (docs/BENCHMARKS.md, GPU runs 5-7). Moving a load up
// past instructions that do not write memory never changes what it reads.
class HoistLoadsPass : public llvm::PassInfoMixin<HoistLoadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

// A pass gate for one codegen run that skips LLVM's MachineSink pass and
// nothing else (the LLVMContext hook that -opt-bisect-limit uses; machine
// passes ask it in skipFunction). MachineSink moves instructions into the
// block that uses them even when that block post-dominates theirs, i.e. runs
// on every path anyway; for loads that only delays them (black_scholes'
// t[i] sank below the inlined `log`'s branch). ptxas still sinks what it
// finds worth sinking.
class SkipMachineSinking final : public llvm::OptPassGate {
public:
  bool shouldRunPass(const llvm::StringRef passName, llvm::StringRef) override {
    return passName != "Machine code sinking";
  }
  bool isEnabled() const override { return true; }
};

}  // namespace backend

namespace llvm {
class DominatorTree;
class LoopInfo;
class PostDominatorTree;
}  // namespace llvm

namespace backend {

// Outside loops, moves each simple global or generic load that its block's earlier
// instructions do not keep down (nothing before it writes memory or has
// side effects) into the highest block that dominates its block, is
// post-dominated by it (every path from there reaches the load anyway) and
// is outside loops too, when no block between the two writes memory, has
// side effects or is in a loop, and the load's address can be computed there (its operands'
// side-effect-free computations move with it). Returns whether anything
// moved; the CFG is unchanged.
// Why: an inlined libdevice function (exp, log, sqrt) branches to its slow
// path, and a load after it was issued only after the whole expansion:
// NVIDIA's ising update_lattice read `randvals[i, j]` after
// `math.exp(...)`, one memory latency after its five other loads (numba-cuda's
// SASS too); above the join, ptxas issues all six together. SIMT functions
// only (RemoveLoadPinsPass calls it where lowering placed load pins).
bool hoistLoadsAboveJoins(llvm::Function& function, const llvm::DominatorTree& dominators,
                          const llvm::PostDominatorTree& postDominators,
                          const llvm::LoopInfo& loops);

}  // namespace backend
