#pragma once
// Division of several float32 values by one value (docs/TILE.md, "Division by
// one value"): IEEE's correctly rounded quotients, bit for bit what
// div.rn.f32 gives, without a division per element.
#include <vector>

#include <llvm/ADT/ArrayRef.h>

namespace llvm {
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace lowering {

// Emits `a / den` for every a in `nums` (float32; `den` one float32 value) at
// the builder's insertion point: den's float64 reciprocal once, then per
// element a float64 product rounded to float32. Three instructions an element
// and no branch; for GPUs with full-rate float64 (sm_80, sm_90).
std::vector<llvm::Value*> divideByUniform(llvm::IRBuilderBase& b, llvm::ArrayRef<llvm::Value*> nums,
                                          llvm::Value* den);

}  // namespace lowering
