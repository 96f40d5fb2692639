#include "backend/passes/constant_trip_loops.h"
#include "backend/passes/preserved.h"

#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

namespace backend {
namespace {

using namespace llvm::PatternMatch;

// The header's exit test `iv < stop` of a loop whose induction variable starts at
// a value from outside the loop and steps by exactly 1; nullptr otherwise.
llvm::ICmpInst* rangeTest(const llvm::Loop& loop, llvm::PHINode*& iv, llvm::Value*& start) {
  llvm::BasicBlock* header = loop.getHeader();
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(header->getTerminator());
  if (branch == nullptr || !branch->isConditional() || loop.getLoopPreheader() == nullptr) return nullptr;
  auto* test = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
  if (test == nullptr || test->getParent() != header) return nullptr;
  llvm::CmpInst::Predicate predicate = test->getPredicate();
  if (predicate != llvm::CmpInst::ICMP_SLT && predicate != llvm::CmpInst::ICMP_ULT) return nullptr;
  // The loop goes on while the test holds: its true edge stays in the loop.
  if (!loop.contains(branch->getSuccessor(0)) || loop.contains(branch->getSuccessor(1))) return nullptr;
  iv = llvm::dyn_cast<llvm::PHINode>(test->getOperand(0));
  if (iv == nullptr || iv->getParent() != header || iv->getNumIncomingValues() != 2) return nullptr;
  start = iv->getIncomingValueForBlock(loop.getLoopPreheader());
  llvm::BasicBlock* latch = loop.getLoopLatch();
  if (start == nullptr || latch == nullptr) return nullptr;
  llvm::Value* next = iv->getIncomingValueForBlock(latch);
  if (next == nullptr || !match(next, m_Add(m_Specific(iv), m_One()))) return nullptr;
  return test;
}

}  // namespace

llvm::PreservedAnalyses ConstantTripLoopsPass::run(llvm::Function& function,
                                                   llvm::FunctionAnalysisManager& analyses) {
  auto& loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto& dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  const llvm::DataLayout& layout = function.getDataLayout();
  bool changed = false;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    llvm::PHINode* iv = nullptr;
    llvm::Value* start = nullptr;
    llvm::ICmpInst* test = rangeTest(*loop, iv, start);
    if (test == nullptr) continue;
    llvm::Value* stop = test->getOperand(1);
    auto* stopInst = llvm::dyn_cast<llvm::Instruction>(stop);
    if (stopInst != nullptr && loop->contains(stopInst)) continue;
    llvm::SimplifyQuery query(layout, &dominators);
    auto* count = llvm::dyn_cast_or_null<llvm::ConstantInt>(
        llvm::simplifyBinOp(llvm::Instruction::Sub, stop, start, query));
    if (count == nullptr || count->isNegative()) continue;
    llvm::IRBuilder<> builder(test);
    llvm::Value* done = builder.CreateSub(iv, start, iv->getName() + ".from.start");
    llvm::Value* more = builder.CreateICmpULT(done, count, test->getName() + ".counted");
    test->getParent()->getTerminator()->replaceUsesOfWith(test, more);
    if (test->use_empty()) test->eraseFromParent();
    changed = true;
  }
  return preservedUnlessChanged(changed);
}

}  // namespace backend
