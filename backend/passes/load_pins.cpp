#include "backend/passes/load_pins.h"
#include "backend/passes/preserved.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include "support/load_pin.h"

#include <vector>

namespace backend {

llvm::PreservedAnalyses RemoveLoadPinsPass::run(llvm::Function& function, llvm::FunctionAnalysisManager&) {
  std::vector<llvm::Instruction*> pins;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : block) {
      if (instruction.getMetadata(support::kLoadPinTag) != nullptr) pins.push_back(&instruction);
    }
  }
  for (llvm::Instruction* pin : pins) pin->eraseFromParent();
  return preservedUnlessChanged(!pins.empty());
}

}  // namespace backend
