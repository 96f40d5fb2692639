#pragma once
// Load pins (placed by lowering/simt/load_pins.h): how SIMT lowering keeps LLVM from sinking a block's array loads into
// the branch that follows them, and the pass that takes the pins out again.
//
// InstCombine sinks an instruction into the one successor that uses it, loads
// included when nothing after them in their block writes memory. A kernel's
// `v = a[i]` read before `if cond: out[i] = f(v)` was then issued only after the
// branch, one memory latency after the loads that `cond` needed (xarray-spatial's
// _ebbi_gpu ran at 0.75x numba-cuda, datashader's cuda_nanmin_n_in_place_4d at
// 0.57x; NVVM, numba's back end, keeps such loads where the source has them).
// A pin is `call void @llvm.sideeffect()` tagged `!pykc.load_pin`, placed before
// the conditional branch of each block that reads memory: it counts as a write,
// so nothing above it is sunk past it, and passes that only care about real
// memory (alias analysis, LICM, GVN) see through it. Tile lowering places none
// (its code is scheduled otherwise; sinking there also kept ptxas' work down).
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}  // namespace llvm

namespace backend {

// Erases every load pin (end of the optimisation pipeline, before HoistLoadsPass).
// First, where a pin's block ends in a conditional branch and InstCombine sank
// every user of one of its loads into a successor (whose only predecessor the
// block is), it moves one such user back above the branch: a cheap instruction
// that cannot fault (no division, no integer extension that SelectionDAG
// would fold into its user; see load_pins.cpp) whose operands are all
// available there. ptxas sinks a load whose value only a successor uses into
// that successor, which undoes the pin: xarray-spatial's _sipi_gpu read
// `blue` after `if denominator != 0:` because `numerator = nir - blue` had been
// sunk below it (numba-cuda's PTX computes it before the branch, where the
// source has it, and ptxas keeps all three loads ahead of the branch).
class RemoveLoadPinsPass : public llvm::PassInfoMixin<RemoveLoadPinsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

}  // namespace backend
