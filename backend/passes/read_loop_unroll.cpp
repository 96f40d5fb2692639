#include "backend/passes/read_loop_unroll.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

namespace backend {
namespace {

// The NVPTX address space `pointer` points into: its own, or, for a generic
// pointer, that of the object it was derived from (a shared array is an
// addrspace(3) global reached through an addrspacecast until
// InferAddressSpaces, which runs later, rewrites it).
unsigned addressSpaceOf(const llvm::Value* pointer) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != 0) return space;
  return llvm::getUnderlyingObject(pointer)->getType()->getPointerAddressSpace();
}

// Kernel arrays live in generic (0) or global (1) memory.
bool isGlobalOrGeneric(const llvm::Value* pointer) {
  unsigned space = addressSpaceOf(pointer);
  return space == 0 || space == 1;
}

// A plain store or atomic to shared memory (address space 3): no global or
// generic load can read what it writes, as ptxas knows from the state
// spaces, so the next element's load need not wait for it.
bool writesOnlySharedMemory(const llvm::Instruction& instruction) {
  const llvm::Value* pointer = nullptr;
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
    if (store->isVolatile()) return false;
    pointer = store->getPointerOperand();
  } else if (const auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
    if (rmw->isVolatile()) return false;
    pointer = rmw->getPointerOperand();
  } else if (const auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
    if (cas->isVolatile()) return false;
    pointer = cas->getPointerOperand();
  }
  return pointer != nullptr && addressSpaceOf(pointer) == 3;
}

// A plain store in an alias-versioned body (backend/passes/alias_versioning.h):
// it carries `!alias.scope`, so scoped no-alias analysis may prove that the
// loop's loads do not read what it writes.
const llvm::StoreInst* scopedStore(const llvm::Instruction& instruction) {
  const auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  if (store == nullptr || !store->isSimple() ||
      store->getMetadata(llvm::LLVMContext::MD_alias_scope) == nullptr) {
    return nullptr;
  }
  return store;
}

// The unroll count ReadLoopUnrollPass gives `loop` (see the header); 0: none.
unsigned unrollCount(llvm::Loop& loop, llvm::ScalarEvolution& scev, llvm::AAResults& aliases) {
  if (!loop.isInnermost() || loop.getLoopLatch() == nullptr) return 0;
  if (llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.count") != nullptr ||
      llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.disable") != nullptr ||
      llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.full") != nullptr ||
      llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.runtime.disable") != nullptr) {
    return 0;
  }
  // A computable trip count that divides by a run-time stride: the loops
  // LLVM's unroller itself turns down as too expensive to count. Those with
  // a constant stride it unrolls (or not) by its own measure.
  const llvm::SCEV* backedges = scev.getBackedgeTakenCount(&loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(backedges)) return 0;
  bool dividesByStride = llvm::SCEVExprContains(backedges, [](const llvm::SCEV* s) {
    const auto* division = llvm::dyn_cast<llvm::SCEVUDivExpr>(s);
    return division != nullptr && !llvm::isa<llvm::SCEVConstant>(division->getRHS());
  });
  if (!dividesByStride) return 0;
  unsigned size = 0;
  llvm::SmallVector<const llvm::LoadInst*, 8> loads;
  llvm::SmallVector<const llvm::StoreInst*, 4> stores;
  for (const llvm::BasicBlock* block : loop.blocks()) {
    for (const llvm::Instruction& instruction : *block) {
      if (llvm::isa<llvm::PHINode>(instruction) || instruction.isDebugOrPseudoInst()) continue;
      ++size;
      if (const llvm::StoreInst* store = scopedStore(instruction)) {
        stores.push_back(store);
      } else if ((instruction.mayWriteToMemory() || instruction.mayHaveSideEffects()) &&
                 !writesOnlySharedMemory(instruction)) {
        return 0;
      }
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
          call != nullptr && call->isConvergent()) {
        return 0;
      }
      if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load != nullptr && !load->isVolatile() && isGlobalOrGeneric(load->getPointerOperand())) {
        loads.push_back(load);
      }
    }
  }
  if (loads.empty() || size > kReadLoopMaxSize) return 0;
  // Each store must be apart from every load in any iteration (hence
  // locations of unknown size around the pointers), or the next element's
  // loads would still wait for this element's store.
  for (const llvm::StoreInst* store : stores) {
    auto written = llvm::MemoryLocation::getBeforeOrAfter(store->getPointerOperand(),
                                                           store->getAAMetadata());
    for (const llvm::LoadInst* load : loads) {
      auto read = llvm::MemoryLocation::getBeforeOrAfter(load->getPointerOperand(),
                                                          load->getAAMetadata());
      if (!aliases.isNoAlias(written, read)) return 0;
    }
  }
  return stores.empty() ? kReadOnlyLoopUnrollCount : kReadLoopUnrollCount;
}

}  // namespace

llvm::PreservedAnalyses ReadLoopUnrollPass::run(llvm::Function& function,
                                                llvm::FunctionAnalysisManager& analyses) {
  if (function.isDeclaration()) return llvm::PreservedAnalyses::all();
  llvm::LoopInfo& loops = analyses.getResult<llvm::LoopAnalysis>(function);
  llvm::ScalarEvolution& scev = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  llvm::AAResults& aliases = analyses.getResult<llvm::AAManager>(function);
  llvm::LLVMContext& context = function.getContext();
  // Preorder: a deterministic order (the metadata is per loop anyway).
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    unsigned times = unrollCount(*loop, scev, aliases);
    if (times == 0) continue;
    llvm::Metadata* count[] = {
        llvm::MDString::get(context, "llvm.loop.unroll.count"),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), times)),
    };
    llvm::MDNode* id = llvm::makePostTransformationMetadata(context, loop->getLoopID(), {},
                                                            {llvm::MDNode::get(context, count)});
    loop->setLoopID(id);
  }
  // Only metadata changed: every analysis still holds.
  return llvm::PreservedAnalyses::all();
}

}  // namespace backend
