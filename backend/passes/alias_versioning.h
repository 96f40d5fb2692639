#pragma once
// Back-end private: the pass that gives a kernel a second body in which its
// array arguments do not alias, chosen at run time by an overlap check of
// the arrays' byte ranges (optimize.cpp adds it after inlining).
#include <llvm/IR/PassManager.h>

#include "backend/passes/read_loop_unroll.h"

namespace llvm {
class Function;
}  // namespace llvm

namespace backend {

// For a SIMT kernel carrying lowering's `pykc.arrays` record
// (lowering/array_params.h), after inlining:
//   - an access is tagged with array argument A when it is a simple
//     (non-volatile, non-atomic) load or store whose address is based on A's
//     data pointer alone (getUnderlyingObjects); atomics, calls and anything
//     else stay untagged, and so may alias everything, as before;
//   - the kernel is versioned when some innermost loop of at most
//     kAliasVersioningMaxLoopSize instructions holds a tagged store to one
//     array and a tagged load from another (where the order of a load and
//     an earlier store decides how many loads a thread has in flight), it
//     tags at most kAliasVersioningMaxArrays arrays and has at most
//     kAliasVersioningMaxSize instructions (code growth: the body doubles);
//   - versioning: the check block -- the nearest block that dominates the
//     way into every such loop (its outermost loop's preheader), outside all
//     loops -- computes, for every pair of tagged arrays of which at least
//     one is stored to, whether their byte ranges [lowest, highest +
//     itemsize) over all in-bounds indices (negative strides included, none
//     for C/F layouts; an array with a zero extent reaches nothing) are
//     disjoint, and branches to a clone of the body or to the body as it
//     was. The body is what the check block dominates: code above it runs
//     once, for both (a thread that returns before the loops never computes
//     the check); where the body leaves that region, the clone's edges join
//     the original's PHIs. In the clone every tagged access carries `!alias.scope` of its
//     array and `!noalias` of all other tagged arrays (one scope per array,
//     one domain per kernel), so LLVM may move loads above stores to other
//     arrays; the original body keeps numba's semantics for overlapping
//     arguments (out == x, overlapping slices of one array).
// Indices out of bounds are undefined behaviour here as in numba (which does
// not check them): the ranges cover every in-bounds element only.
// The record is removed in every case (also when `enabled` is false:
// `--no-alias-versioning`), so codegen never sees it.
class AliasVersioningPass : public llvm::PassInfoMixin<AliasVersioningPass> {
public:
  explicit AliasVersioningPass(bool enabled) : enabled_(enabled) {}
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);

private:
  bool enabled_;
};

inline constexpr unsigned kAliasVersioningMaxArrays = 8;
inline constexpr unsigned kAliasVersioningMaxSize = 4000;
// The loops worth a second body: those the read-only loop unroller would
// also take by size (read_loop_unroll.h); larger ones gain nothing from
// loads moving across iterations and would only double the code.
inline constexpr unsigned kAliasVersioningMaxLoopSize = kReadLoopMaxSize;

}  // namespace backend
