#include "backend/hoist_loads.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace backend {
namespace {

bool isGlobalOrGenericLoad(const llvm::Instruction& instruction) {
  const auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
  if (load == nullptr || !load->isSimple()) return false;
  const llvm::Value* pointer = load->getPointerOperand();
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space == 0) space = llvm::getUnderlyingObject(pointer)->getType()->getPointerAddressSpace();
  return space == 0 || space == 1;
}

// Instructions nothing may be moved above: they write memory, have side
// effects, or may not return (a load moved above them would run when it did
// not before). Pure intrinsics (llvm.sqrt, special registers) are no barrier.
bool isBarrier(const llvm::Instruction& instruction) {
  return instruction.mayWriteToMemory() || instruction.mayHaveSideEffects() ||
         !instruction.willReturn();
}

// The first instruction after `anchor`, or after the PHIs when it is null.
llvm::Instruction* frontier(llvm::BasicBlock& block, llvm::Instruction* anchor) {
  return anchor != nullptr ? anchor->getNextNode() : &*block.getFirstInsertionPt();
}

// Moves `instruction` right after `anchor` (null: after the PHIs), first
// moving there the operands it needs that are still in `pending` (the
// instructions after `anchor`), and returns the last instruction moved (the
// new anchor). Returns null, moving nothing, if such an operand is a PHI, a
// barrier or reads memory.
llvm::Instruction* moveUp(llvm::Instruction& instruction, llvm::Instruction* anchor,
                          llvm::SmallPtrSetImpl<llvm::Instruction*>& pending) {
  llvm::SmallPtrSet<llvm::Instruction*, 8> chain;
  llvm::SmallVector<llvm::Instruction*, 8> work{&instruction};
  while (!work.empty()) {
    llvm::Instruction* current = work.pop_back_val();
    if (!chain.insert(current).second) continue;
    for (llvm::Value* operand : current->operands()) {
      auto* def = llvm::dyn_cast<llvm::Instruction>(operand);
      if (def == nullptr || !pending.contains(def)) continue;
      if (llvm::isa<llvm::PHINode>(def) || isBarrier(*def) || def->mayReadFromMemory()) {
        return nullptr;
      }
      work.push_back(def);
    }
  }
  // In block order, so that every definition stays before its uses.
  llvm::BasicBlock& block = *instruction.getParent();
  llvm::SmallVector<llvm::Instruction*, 8> ordered;
  for (llvm::Instruction& i : block) {
    if (chain.contains(&i)) ordered.push_back(&i);
  }
  for (llvm::Instruction* i : ordered) {
    // One already in place stays (moving an instruction before itself would
    // corrupt the block's list).
    if (llvm::Instruction* at = frontier(block, anchor); at != i) i->moveBefore(at);
    pending.erase(i);
    anchor = i;
  }
  return anchor;
}

bool hoistLoadsInBlock(llvm::BasicBlock& block) {
  bool changed = false;
  // Loads go right after `anchor`: the last barrier or the last instruction
  // placed (null: after the PHIs); `pending` holds what comes after it.
  llvm::Instruction* anchor = nullptr;
  llvm::SmallPtrSet<llvm::Instruction*, 32> pending;
  llvm::SmallVector<llvm::Instruction*, 32> order;
  for (llvm::Instruction& i : llvm::make_range(block.getFirstInsertionPt(), block.end())) {
    pending.insert(&i);
    order.push_back(&i);
  }
  for (llvm::Instruction* instruction : order) {
    if (instruction->isTerminator()) break;
    if (isBarrier(*instruction)) {
      // Nothing moves above it: it becomes the anchor.
      for (llvm::Instruction* i = frontier(block, anchor); i != instruction; i = i->getNextNode()) {
        pending.erase(i);
      }
      pending.erase(instruction);
      anchor = instruction;
      continue;
    }
    if (!isGlobalOrGenericLoad(*instruction)) continue;
    if (frontier(block, anchor) == instruction) {
      pending.erase(instruction);
      anchor = instruction;
      continue;
    }
    // After the loads placed earlier: their order is kept.
    if (llvm::Instruction* last = moveUp(*instruction, anchor, pending)) {
      anchor = last;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

llvm::PreservedAnalyses HoistLoadsPass::run(llvm::Function& function,
                                            llvm::FunctionAnalysisManager&) {
  bool changed = false;
  for (llvm::BasicBlock& block : function) changed |= hoistLoadsInBlock(block);
  if (!changed) return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

}  // namespace backend
