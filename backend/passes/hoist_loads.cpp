#include "backend/passes/hoist_loads.h"
#include "backend/passes/preserved.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Dominators.h>
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

// A plain store in an alias-versioned body (`!alias.scope`,
// backend/passes/alias_versioning.h): loads that alias analysis proves apart from it
// may move above it.
llvm::StoreInst* scopedStore(llvm::Instruction& instruction) {
  auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  if (store == nullptr || !store->isSimple() ||
      store->getMetadata(llvm::LLVMContext::MD_alias_scope) == nullptr) {
    return nullptr;
  }
  return store;
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

// `aliases` gives alias analysis, asked for only where a scoped store is met.
bool hoistLoadsInBlock(llvm::BasicBlock& block, llvm::function_ref<llvm::AAResults&()> aliases) {
  bool changed = false;
  // Loads go right after `anchor`: the last barrier or the last instruction
  // placed (null: after the PHIs); `pending` holds what comes after it, and
  // `stores` the scoped stores among it, in order.
  llvm::Instruction* anchor = nullptr;
  llvm::SmallPtrSet<llvm::Instruction*, 32> pending;
  llvm::SmallVector<llvm::StoreInst*, 8> stores;
  llvm::SmallVector<llvm::Instruction*, 32> order;
  for (llvm::Instruction& i : llvm::make_range(block.getFirstInsertionPt(), block.end())) {
    pending.insert(&i);
    order.push_back(&i);
  }
  // Makes `to` the anchor: nothing moves above it any more.
  auto anchorAt = [&](llvm::Instruction* to) {
    for (llvm::Instruction* i = frontier(block, anchor); i != to; i = i->getNextNode()) {
      pending.erase(i);
    }
    pending.erase(to);
    anchor = to;
  };
  for (llvm::Instruction* instruction : order) {
    if (instruction->isTerminator()) break;
    if (llvm::StoreInst* store = scopedStore(*instruction)) {
      stores.push_back(store);
      continue;
    }
    if (isBarrier(*instruction)) {
      anchorAt(instruction);
      stores.clear();
      continue;
    }
    if (!isGlobalOrGenericLoad(*instruction)) continue;
    // The load stays below the last store that may write what it reads.
    auto* load = llvm::cast<llvm::LoadInst>(instruction);
    llvm::MemoryLocation read = llvm::MemoryLocation::get(load);
    for (size_t s = stores.size(); s-- > 0;) {
      if (aliases().isNoAlias(llvm::MemoryLocation::get(stores[s]), read)) continue;
      anchorAt(stores[s]);
      stores.erase(stores.begin(), stores.begin() + static_cast<std::ptrdiff_t>(s) + 1);
      break;
    }
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

// Whether a block strictly between `top` and `bottom` (dominated by `top`,
// post-dominated by `bottom`) holds a barrier or is in a loop: a load moved
// above a loop would stay live through all of it (pylabolt's
// velocity_compute_density_based read force_field[ind, 0..1] after its loop
// over directions: 32 -> 40 registers when moved above it).
bool barrierBetween(llvm::Function& function, llvm::BasicBlock* top, llvm::BasicBlock* bottom,
                    const llvm::DominatorTree& dominators,
                    const llvm::PostDominatorTree& postDominators, const llvm::LoopInfo& loops) {
  for (llvm::BasicBlock& block : function) {
    if (&block == top || &block == bottom || !dominators.dominates(top, &block) ||
        !postDominators.dominates(bottom, &block)) {
      continue;
    }
    if (loops.getLoopFor(&block) != nullptr) return true;
    for (llvm::Instruction& instruction : block) {
      if (isBarrier(instruction)) return true;
    }
  }
  return false;
}

// The highest block `load` may move to (see hoistLoadsAboveJoins); null if none.
llvm::BasicBlock* joinTarget(llvm::LoadInst& load, const llvm::DominatorTree& dominators,
                             const llvm::PostDominatorTree& postDominators,
                             const llvm::LoopInfo& loops) {
  llvm::BasicBlock* block = load.getParent();
  llvm::Function& function = *block->getParent();
  llvm::BasicBlock* best = nullptr;
  for (llvm::DomTreeNode* node = dominators.getNode(block)->getIDom(); node != nullptr;
       node = node->getIDom()) {
    llvm::BasicBlock* candidate = node->getBlock();
    if (loops.getLoopFor(candidate) != loops.getLoopFor(block) ||
        !postDominators.dominates(block, candidate) ||
        barrierBetween(function, candidate, block, dominators, postDominators, loops)) {
      break;
    }
    best = candidate;
  }
  return best;
}

// The instructions of `load`'s block that compute its address, in block
// order, the load last; empty if one of them cannot move (a PHI, a barrier,
// a memory read) or needs a value not available at the end of `target`.
llvm::SmallVector<llvm::Instruction*, 8> addressChain(llvm::LoadInst& load, llvm::BasicBlock* target,
                                                      const llvm::DominatorTree& dominators) {
  llvm::BasicBlock* block = load.getParent();
  llvm::SmallPtrSet<llvm::Instruction*, 8> chain;
  llvm::SmallVector<llvm::Instruction*, 8> work{&load};
  while (!work.empty()) {
    llvm::Instruction* current = work.pop_back_val();
    if (!chain.insert(current).second) continue;
    for (llvm::Value* operand : current->operands()) {
      auto* def = llvm::dyn_cast<llvm::Instruction>(operand);
      if (def == nullptr) continue;
      if (def->getParent() != block) {
        if (!dominators.dominates(def, target->getTerminator())) return {};
        continue;
      }
      if (llvm::isa<llvm::PHINode>(def) || isBarrier(*def) || def->mayReadFromMemory()) return {};
      work.push_back(def);
    }
  }
  llvm::SmallVector<llvm::Instruction*, 8> ordered;
  for (llvm::Instruction& i : *block) {
    if (chain.contains(&i)) ordered.push_back(&i);
  }
  return ordered;
}

}  // namespace

bool hoistLoadsAboveJoins(llvm::Function& function, const llvm::DominatorTree& dominators,
                          const llvm::PostDominatorTree& postDominators,
                          const llvm::LoopInfo& loops) {
  bool changed = false;
  for (llvm::BasicBlock& block : function) {
    // Not in loops: there the loads of an unrolled body would stay live across
    // its `if`s, which costs registers where every one counts (xarray-spatial's
    // focal kernels 30-32 -> 32-34: 75 % occupancy past 32), for little (the
    // loop's other loads are in flight meanwhile).
    if (dominators.getNode(&block) == nullptr || loops.getLoopFor(&block) != nullptr) continue;
    // The loads above the block's first barrier, in order.
    llvm::SmallVector<llvm::LoadInst*, 8> loads;
    for (llvm::Instruction& instruction : block) {
      if (isBarrier(instruction)) break;
      if (isGlobalOrGenericLoad(instruction)) loads.push_back(llvm::cast<llvm::LoadInst>(&instruction));
    }
    for (llvm::LoadInst* load : loads) {
      llvm::BasicBlock* target = joinTarget(*load, dominators, postDominators, loops);
      if (target == nullptr) continue;
      llvm::SmallVector<llvm::Instruction*, 8> chain = addressChain(*load, target, dominators);
      for (llvm::Instruction* instruction : chain) instruction->moveBefore(target->getTerminator());
      changed = changed || !chain.empty();
    }
  }
  return changed;
}

llvm::PreservedAnalyses HoistLoadsPass::run(llvm::Function& function,
                                            llvm::FunctionAnalysisManager& analyses) {
  auto aliases = [&]() -> llvm::AAResults& {
    return analyses.getResult<llvm::AAManager>(function);
  };
  bool changed = false;
  for (llvm::BasicBlock& block : function) changed |= hoistLoadsInBlock(block, aliases);
  return preservedUnlessChanged(changed);
}

}  // namespace backend
