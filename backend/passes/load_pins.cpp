#include "backend/passes/load_pins.h"
#include "backend/passes/hoist_loads.h"
#include "backend/passes/preserved.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include "support/load_pin.h"

#include <vector>

namespace backend {
namespace {

// A few SASS instructions at most, never a fault: what may run on the path
// that did not need it (no division, no call, no memory access).
bool cheapToSpeculate(const llvm::Instruction& instruction) {
  if (auto* binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
    switch (binary->getOpcode()) {
      case llvm::Instruction::UDiv:
      case llvm::Instruction::SDiv:
      case llvm::Instruction::URem:
      case llvm::Instruction::SRem:
      case llvm::Instruction::FDiv:
      case llvm::Instruction::FRem:
        return false;
      default:
        break;
    }
  } else if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
    // Integer extensions and truncations stay with their users: SelectionDAG
    // folds them into them within a block (`mul.wide.s32` for a multiply of
    // a sign-extended int32 index, cuml's perform_expansion).
    if (!cast->getType()->isFPOrFPVectorTy() && !cast->getSrcTy()->isFPOrFPVectorTy()) return false;
  } else if (!llvm::isa<llvm::CmpInst, llvm::UnaryOperator, llvm::SelectInst>(instruction)) {
    return false;
  }
  return llvm::isSafeToSpeculativelyExecute(&instruction);
}

// One user of `load` that InstCombine sank into a successor of the pin's
// block and that can move back before its branch; null when there is none
// (or when the load has a user in its own block already).
llvm::Instruction* sunkUser(llvm::LoadInst& load) {
  llvm::BasicBlock* block = load.getParent();
  llvm::Instruction* found = nullptr;
  for (llvm::User* user : load.users()) {
    auto* instruction = llvm::dyn_cast<llvm::Instruction>(user);
    if (instruction == nullptr) return nullptr;
    if (instruction->getParent() == block) return nullptr;
    if (found != nullptr || llvm::isa<llvm::PHINode>(instruction) ||
        instruction->getParent()->getSinglePredecessor() != block || !cheapToSpeculate(*instruction)) {
      continue;
    }
    // Operands from the successor itself are not available in `block`; any
    // other dominates the successor, so also `block`, its only predecessor.
    bool available = true;
    for (const llvm::Use& operand : instruction->operands()) {
      auto* defined = llvm::dyn_cast<llvm::Instruction>(operand.get());
      if (defined != nullptr && defined->getParent() == instruction->getParent()) available = false;
    }
    if (available) found = instruction;
  }
  return found;
}

// Gives each load of `block` (which ends in the branch `pin` stands before) a
// user above the branch again where InstCombine sank them all below it.
bool keepUsesAbove(llvm::Instruction& pin) {
  llvm::BasicBlock* block = pin.getParent();
  llvm::Instruction* terminator = block->getTerminator();
  if (terminator == nullptr || terminator->getNumSuccessors() < 2) return false;
  std::vector<llvm::Instruction*> moves;
  for (llvm::Instruction& instruction : *block) {
    auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (load == nullptr || !load->isSimple()) continue;
    if (llvm::Instruction* user = sunkUser(*load)) moves.push_back(user);
  }
  for (llvm::Instruction* user : moves) user->moveBefore(terminator);
  return !moves.empty();
}

}  // namespace

llvm::PreservedAnalyses RemoveLoadPinsPass::run(llvm::Function& function,
                                                llvm::FunctionAnalysisManager& analyses) {
  std::vector<llvm::Instruction*> pins;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : block) {
      if (instruction.getMetadata(support::kLoadPinTag) != nullptr) pins.push_back(&instruction);
    }
  }
  for (llvm::Instruction* pin : pins) {
    keepUsesAbove(*pin);
    pin->eraseFromParent();
  }
  // Only instructions moved: the CFG analyses stay valid.
  if (!pins.empty()) {
    hoistLoadsAboveJoins(function, analyses.getResult<llvm::DominatorTreeAnalysis>(function),
                         analyses.getResult<llvm::PostDominatorTreeAnalysis>(function),
                         analyses.getResult<llvm::LoopAnalysis>(function));
  }
  return preservedUnlessChanged(!pins.empty());
}

}  // namespace backend
