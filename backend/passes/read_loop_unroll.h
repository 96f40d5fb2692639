#pragma once
// Back-end private: the loop pass that asks LLVM to unroll strided loops
// which only read memory (optimize.cpp adds it to the pipeline).
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}  // namespace llvm

namespace backend {

// Marks for runtime unrolling (`llvm.loop.unroll.count` metadata, which
// LLVM's LoopUnrollPass then honours) by kReadOnlyLoopUnrollCount, or by
// kReadLoopUnrollCount where the loop also stores, every innermost loop that
//   - has a trip count that SCEV computes by dividing by a run-time stride
//     (block- and grid-stride loops: `range(tid, n, cuda.blockDim.x)`),
//   - loads from global or generic memory, writes no memory but shared
//     memory (stores and atomics), has no other side effects and no
//     convergent calls (reductions such as softmax's max and sum of exp, a
//     histogram's shared-memory atomics) -- or also has plain stores in an
//     alias-versioned body (`!alias.scope`, backend/passes/alias_versioning.h) that
//     alias analysis proves apart from every load of the loop in any
//     iteration (saxpy's grid-stride loop when its arrays do not overlap),
//     and
//   - is at most kReadLoopMaxSize instructions long.
// Why: NVPTX's unrolling preferences allow runtime unrolling, but LLVM
// refuses it when the trip count needs a division ((n - tid) / stride):
// "expensive". nvcc's NVVM unrolls these loops by 4, so each thread has four
// loads in flight instead of one (softmax: 0.70x nvcc without it). Only
// read-only loops: where the loop also stores, a load of the next element
// may not move above the store of this one (numba's arrays may alias), so an
// unrolled body still has one load in flight and only costs registers
// (docs/BENCHMARKS.md, GPU run 4); in a no-alias body the loads may move
// (HoistLoadsPass moves them). Leaves loops that already carry unroll
// metadata alone.
class ReadLoopUnrollPass : public llvm::PassInfoMixin<ReadLoopUnrollPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

inline constexpr unsigned kReadLoopUnrollCount = 4;
// Loops that only read (reductions such as softmax's max and sum of exp): 8
// loads in flight per thread. On the H200 softmax went 0.425 -> 0.385 ms
// (0.86x -> 0.95x nvcc) at the same 32 registers; saxpy's storing loop
// unrolled by 8 was slower (80 registers), so loops that store keep 4
// (docs/BENCHMARKS.md, session 5).
inline constexpr unsigned kReadOnlyLoopUnrollCount = 8;
inline constexpr unsigned kReadLoopMaxSize = 48;

}  // namespace backend
