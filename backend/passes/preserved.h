#pragma once
// What a pass that only rewrites instructions, never blocks or edges, keeps.
#include <llvm/IR/Analysis.h>
#include <llvm/IR/PassManager.h>

namespace backend {

// Everything when nothing changed; otherwise the CFG analyses (dominators, loops).
inline llvm::PreservedAnalyses preservedUnlessChanged(bool changed) {
  if (!changed) return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

}  // namespace backend
