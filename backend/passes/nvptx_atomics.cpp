#include "backend/passes/nvptx_atomics.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <string>
#include <vector>

namespace backend {
namespace {

std::optional<std::string> semantics(llvm::AtomicOrdering order) {
  switch (order) {
    case llvm::AtomicOrdering::Monotonic:
      return ".relaxed";
    case llvm::AtomicOrdering::Acquire:
      return ".acquire";
    case llvm::AtomicOrdering::Release:
      return ".release";
    case llvm::AtomicOrdering::AcquireRelease:
    case llvm::AtomicOrdering::SequentiallyConsistent:
      return ".acq_rel";
    default:
      return std::nullopt;
  }
}

std::optional<std::string> scopeOf(llvm::LLVMContext& context, llvm::SyncScope::ID id) {
  if (id == llvm::SyncScope::System) return ".sys";
  if (id == llvm::SyncScope::SingleThread) return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 8> names;
  context.getSyncScopeNames(names);
  if (id >= names.size()) return std::nullopt;
  if (names[id] == "block") return ".cta";
  if (names[id] == "device") return ".gpu";
  return std::nullopt;
}

std::optional<std::string> spaceOf(unsigned addressSpace) {
  switch (addressSpace) {
    case 0:
      return "";
    case 1:
      return ".global";
    case 3:
      return ".shared";
    default:
      return std::nullopt;
  }
}

// PTX's `op.type` for an atomicrmw on `type`, or nullopt.
std::optional<std::string> operation(llvm::AtomicRMWInst::BinOp op, llvm::Type* type, unsigned sm) {
  using Op = llvm::AtomicRMWInst::BinOp;
  unsigned bits = type->getPrimitiveSizeInBits();
  bool integer = type->isIntegerTy() && (bits == 32 || bits == 64);
  std::string b = std::to_string(bits);
  switch (op) {
    case Op::Add:
      return integer ? std::optional<std::string>("add.u" + b) : std::nullopt;
    case Op::FAdd:
      if (type->isFloatTy()) return "add.f32";
      if (type->isDoubleTy()) return "add.f64";
      if (type->isHalfTy()) return "add.noftz.f16";
      if (type->isBFloatTy() && sm >= 90) return "add.noftz.bf16";
      return std::nullopt;
    case Op::Max:
    case Op::Min:
    case Op::UMax:
    case Op::UMin: {
      if (!integer) return std::nullopt;
      bool isSigned = op == Op::Max || op == Op::Min;
      bool isMax = op == Op::Max || op == Op::UMax;
      return std::string(isMax ? "max." : "min.") + (isSigned ? "s" : "u") + b;
    }
    case Op::And:
      return integer ? std::optional<std::string>("and.b" + b) : std::nullopt;
    case Op::Or:
      return integer ? std::optional<std::string>("or.b" + b) : std::nullopt;
    case Op::Xor:
      return integer ? std::optional<std::string>("xor.b" + b) : std::nullopt;
    case Op::Xchg:
      return bits == 32 || bits == 64 ? std::optional<std::string>("exch.b" + b) : std::nullopt;
    default:
      return std::nullopt;
  }
}

// The register constraint of a `bits`-wide integer operand.
const char* constraint(unsigned bits) { return bits == 16 ? "h" : bits == 32 ? "r" : "l"; }

// `atom...` before the operation: the fence for seq_cst, then
// `atom.sem.scope.space.` (nullopt when not expressible).
std::optional<std::string> prefix(llvm::Instruction& inst, llvm::AtomicOrdering order, llvm::SyncScope::ID scope,
                                  llvm::Value* pointer) {
  auto sem = semantics(order);
  auto sc = scopeOf(inst.getContext(), scope);
  auto space = spaceOf(pointer->getType()->getPointerAddressSpace());
  if (!sem || !sc || !space) return std::nullopt;
  std::string text;
  if (order == llvm::AtomicOrdering::SequentiallyConsistent) text = "fence.sc" + *sc + ";\n\t";
  return text + "atom" + *sem + *sc + *space + ".";
}

bool isDefault(llvm::AtomicOrdering order, llvm::SyncScope::ID scope, llvm::LLVMContext& context) {
  return order == llvm::AtomicOrdering::Monotonic && scope == context.getOrInsertSyncScopeID("device");
}

// A generic pointer into a kernel's pointer parameter points to global memory
// (what NVPTXLowerArgs assumes): as an addrspace(1) pointer, for `.global`.
llvm::Value* globalIfParameter(llvm::IRBuilder<>& b, llvm::Value* pointer) {
  if (pointer->getType()->getPointerAddressSpace() != 0) return pointer;
  const auto* argument = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(pointer, 0));
  if (argument == nullptr || argument->getParent()->getCallingConv() != llvm::CallingConv::PTX_Kernel) {
    return pointer;
  }
  return b.CreateAddrSpaceCast(pointer, b.getPtrTy(1));
}

// The inline-asm call for `text` with operands bit-cast to integers of
// `bits`; returns the result as `resultType`.
llvm::Value* emitAsm(llvm::IRBuilder<>& b, const std::string& text, unsigned bits, llvm::Value* pointer,
                     std::vector<llvm::Value*> values, llvm::Type* resultType) {
  llvm::Type* it = b.getIntNTy(bits);
  std::string c = std::string("=") + constraint(bits) + ",l";
  std::vector<llvm::Type*> params{b.getInt64Ty()};
  std::vector<llvm::Value*> args{b.CreatePtrToInt(pointer, b.getInt64Ty())};
  for (llvm::Value* v : values) {
    c += std::string(",") + constraint(bits);
    params.push_back(it);
    args.push_back(v->getType() == it ? v : b.CreateBitCast(v, it));
  }
  c += ",~{memory}";
  auto* type = llvm::FunctionType::get(it, params, false);
  auto* code = llvm::InlineAsm::get(type, text, c, /*hasSideEffects=*/true);
  llvm::Value* r = b.CreateCall(type, code, args);
  return resultType == it ? r : b.CreateBitCast(r, resultType);
}

}  // namespace

unsigned lowerOrderedAtomics(llvm::Module& module, unsigned smVersion) {
  std::vector<llvm::Instruction*> work;
  for (llvm::Function& f : module) {
    for (llvm::BasicBlock& block : f) {
      for (llvm::Instruction& inst : block) {
        if (llvm::isa<llvm::AtomicRMWInst>(inst) || llvm::isa<llvm::AtomicCmpXchgInst>(inst)) work.push_back(&inst);
      }
    }
  }
  unsigned rewritten = 0;
  llvm::LLVMContext& context = module.getContext();
  for (llvm::Instruction* inst : work) {
    llvm::IRBuilder<> b(inst);
    if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(inst)) {
      if (isDefault(rmw->getOrdering(), rmw->getSyncScopeID(), context)) continue;
      llvm::Type* type = rmw->getValOperand()->getType();
      auto op = operation(rmw->getOperation(), type, smVersion);
      llvm::Value* pointer = globalIfParameter(b, rmw->getPointerOperand());
      auto head = prefix(*rmw, rmw->getOrdering(), rmw->getSyncScopeID(), pointer);
      if (!op || !head) continue;
      unsigned bits = type->getPrimitiveSizeInBits();
      llvm::Value* old = emitAsm(b, *head + *op + " $0, [$1], $2;", bits, pointer, {rmw->getValOperand()}, type);
      rmw->replaceAllUsesWith(old);
      rmw->eraseFromParent();
      ++rewritten;
      continue;
    }
    auto* cas = llvm::cast<llvm::AtomicCmpXchgInst>(inst);
    if (isDefault(cas->getSuccessOrdering(), cas->getSyncScopeID(), context)) continue;
    llvm::Type* type = cas->getCompareOperand()->getType();
    unsigned bits = type->getPrimitiveSizeInBits();
    if (!type->isIntegerTy() || (bits != 32 && bits != 64)) continue;
    // The success ordering is the stronger (the failure one only reads).
    llvm::Value* pointer = globalIfParameter(b, cas->getPointerOperand());
    auto head = prefix(*cas, cas->getSuccessOrdering(), cas->getSyncScopeID(), pointer);
    if (!head) continue;
    llvm::Value* old = emitAsm(b, *head + "cas.b" + std::to_string(bits) + " $0, [$1], $2, $3;", bits, pointer,
                               {cas->getCompareOperand(), cas->getNewValOperand()}, type);
    llvm::Value* pair = llvm::PoisonValue::get(cas->getType());
    pair = b.CreateInsertValue(pair, old, 0);
    pair = b.CreateInsertValue(pair, b.CreateICmpEQ(old, cas->getCompareOperand()), 1);
    cas->replaceAllUsesWith(pair);
    cas->eraseFromParent();
    ++rewritten;
  }
  return rewritten;
}

}  // namespace backend
