#include "lowering/simt/load_pins.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Metadata.h>

#include "support/load_pin.h"

namespace lowering::simt {
namespace {

bool readsMemory(const llvm::BasicBlock& block) {
  for (const llvm::Instruction& instruction : block) {
    const auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (load != nullptr && !llvm::isa<llvm::AllocaInst>(load->getPointerOperand()->stripPointerCasts())) {
      return true;
    }
  }
  return false;
}

}  // namespace

unsigned pinLoads(llvm::Function& function) {
  unsigned placed = 0;
  llvm::Function* sideEffect = nullptr;
  for (llvm::BasicBlock& block : function) {
    auto* branch = llvm::dyn_cast_or_null<llvm::BranchInst>(block.getTerminator());
    if (branch == nullptr || !branch->isConditional() || !readsMemory(block)) continue;
    if (sideEffect == nullptr) {
      sideEffect = llvm::Intrinsic::getDeclaration(function.getParent(), llvm::Intrinsic::sideeffect);
    }
    llvm::IRBuilder<> builder(branch);
    llvm::CallInst* pin = builder.CreateCall(sideEffect);
    pin->setMetadata(support::kLoadPinTag, llvm::MDNode::get(function.getContext(), {}));
    ++placed;
  }
  return placed;
}

}  // namespace lowering::simt
