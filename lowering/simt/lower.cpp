#include "lowering/lower.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <cassert>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <span>

#include "syntax/ast.h"
#include "syntax/source.h"
#include "sema/typed_module.h"
#include "lowering/array_params.h"
#include "lowering/simt/complex_math.h"
#include "lowering/simt/cache_hints.h"
#include "lowering/simt/libdevice_calls.h"
#include "lowering/tile/tile_lower.h"
#include "lowering/simt/xoroshiro.h"

namespace lowering {
namespace {

// The most shared memory one block can have on `arch` (the opt-in limit of
// cudaFuncSetAttribute: 99 KiB on sm_86/sm_89, 163 KiB on sm_80/sm_87,
// 227 KiB on sm_90; 64 KiB on sm_75).
uint32_t maxSharedPerBlock(const std::string& arch) {
  if (arch.rfind("sm_90", 0) == 0) return 227 * 1024;
  if (arch == "sm_80" || arch == "sm_87") return 163 * 1024;
  if (arch == "sm_86" || arch == "sm_89") return 99 * 1024;
  if (arch == "sm_75") return 64 * 1024;
  return 48 * 1024;
}

using namespace frontend;

constexpr const char* kTriple = "nvptx64-nvidia-cuda";
constexpr const char* kDataLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";
constexpr unsigned kSharedAddressSpace = 3;

struct MathInfo {
  std::string_view libdevice;
};
constexpr MathInfo kMathInfo[] = {
#define PYKC_MATH(Name, PyName, Arity, Libdevice) {Libdevice},
#include "sema/math_functions.def"
};

// An array value: the ABI's data pointer, shapes and strides (elements).
struct ArrayParts {
  llvm::Value* data;
  std::vector<llvm::Value*> shape;
  std::vector<llvm::Value*> strides;
};

struct LoopTargets {
  llvm::BasicBlock* continueBlock;
  llvm::BasicBlock* breakBlock;
};

class ModuleLowering;

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering& ml, const FunctionInstance& inst, llvm::Function* function);
  void run();

private:
  // --- types and values ---
  TypeTable& types();
  llvm::Type* llvmType(TypeId t);
  llvm::Type* memoryType(TypeId t);
  llvm::Value* constant(const ConstValue& c, TypeId t);
  llvm::Value* convert(llvm::Value* v, TypeId from, TypeId to);
  llvm::Value* truth(llvm::Value* v, TypeId t);
  ArrayParts arrayParts(llvm::Value* array, TypeId t);
  llvm::Value* makeArray(const ArrayParts& parts, TypeId t);

  // --- statements ---
  void emitBody(std::span<const StmtId> body);
  void emitStmt(StmtId id);
  void emitFor(StmtId id, const ast::For& f);
  void emitIterFor(StmtId id, const ast::For& f, const ForIteration& plan);
  void emitLoopElse(const ast::For& f, llvm::BasicBlock* otherwise, llvm::BasicBlock* exit);
  void rangeParts(const ast::Call& call, TypeId t, llvm::Value*& start, llvm::Value*& step,
                  llvm::Value*& length);
  void storeTarget(ExprId target, llvm::Value* value, TypeId type);
  bool terminated() const { return builder_.GetInsertBlock()->getTerminator() != nullptr; }
  void startDeadBlock();
  void setLocation(const NodeRange& r);

  // --- expressions ---
  TypeId typeOf(ExprId id) const { return inst_.exprTypes[id.index]; }
  llvm::Value* emitExpr(ExprId id);
  llvm::Value* emitExprAs(ExprId id, TypeId t) { return convert(emitExpr(id), typeOf(id), t); }
  llvm::Value* emitCondition(ExprId id);
  llvm::Value* emitCompare(ExprId id, const ast::Compare& c);
  llvm::Value* emitBoolOp(ExprId id, const ast::BoolOp& b);
  llvm::Value* emitIfExp(ExprId id, const ast::IfExp& i);
  llvm::Value* emitUnary(ExprId id, const ast::UnaryOp& u);
  llvm::Value* emitAttribute(ExprId id, const ast::Attribute& a);
  llvm::Value* emitSubscript(ExprId id, const ast::Subscript& s);
  llvm::Value* emitArrayView(ExprId id, const ast::Subscript& s);
  llvm::Value* emitCall(ExprId id, const ast::Call& c);
  llvm::Value* emitExternCall(const ExternFunction& fn, std::span<const ExprId> args);
  llvm::Value* emitMath(ExprId id, MathFn fn, const ast::Call& c);
  llvm::Value* emitAtomic(ExprId id, Intrinsic kind, const ast::Call& c);
  llvm::Value* emitFloatMinMax(llvm::Value* ptr, llvm::Value* value, bool isMax, bool nan);
  // numba's atomics are device-scope (CUDA's atomicAdd): LLVM's "device" sync
  // scope, which the back end emits as a plain `atom` (backend/passes/nvptx_atomics.h).
  llvm::SyncScope::ID deviceScope() { return builder_.getContext().getOrInsertSyncScopeID("device"); }
  llvm::Value* emitMatch(Intrinsic kind, std::span<const ExprId> args, TypeId valueType);
  llvm::Value* constArray(uint32_t index, TypeId arrayType);
  // Complex numbers: {re, im} structs.
  llvm::Value* makeComplex(llvm::Value* re, llvm::Value* im, TypeId t);
  llvm::Value* complexArith(Operator op, llvm::Value* l, llvm::Value* r, TypeId t);
  llvm::Value* emitCmath(ExprId id, CmathFn fn, const ast::Call& c);
  // cmath.infj / cmath.nanj (the real constants are folded by the checker).
  llvm::Value* complexMathConst(uint32_t payload, TypeId t) {
    llvm::Type* part = llvmType(types().complexPart(t));
    return makeComplex(llvm::ConstantFP::get(part, 0.0),
                       llvm::ConstantFP::get(part, mathConstValue(payload)), t);
  }
  llvm::Align elementAlign(TypeId elementType);
  llvm::Value* emitFp16(Fp16Fn fn, std::span<const ExprId> args);
  void emitPrint(std::span<const ExprId> args);
  // `view op= x` on a slice: the element operation (stmtOpTypes & co.).
  struct SliceUpdate {
    Operator op;
    TypeId opType;
    TypeId resultType;
    TypeId exponent;
  };
  void storeSlice(llvm::Value* view, TypeId viewType, llvm::Value* value, TypeId valueType,
                  const SliceUpdate* update = nullptr);
  void sliceShapeFailure(llvm::Value* mismatch);
  llvm::Value* emitArrayAlloc(ExprId id, Intrinsic kind, const ast::Call& c);
  llvm::Value* emitArith(Operator op, llvm::Value* l, llvm::Value* r, TypeId opType,
                         TypeId exponentType);
  llvm::Value* emitCmp(CmpOp op, llvm::Value* l, llvm::Value* r, TypeId opType);
  llvm::Value* elementPointer(ExprId arrayExpr, ExprId indexExpr, TypeId& elementType);
  // The address of field `name` of the record `recordExpr` evaluates to.
  llvm::Value* fieldPointer(ExprId recordExpr, std::string_view name, TypeId& fieldType);
  // Loads and stores of a field: packed records (align=False) may place
  // fields at any byte, so their accesses are byte-aligned unless the offset
  // and the itemsize keep the field's natural alignment.
  llvm::Value* loadField(llvm::Value* ptr, TypeId fieldType);
  void storeField(llvm::Value* ptr, llvm::Value* value, TypeId fieldType);
  llvm::Align fieldAlign_{1};
  // `r.x` or `r['x']` of a record `r`: the field's address; nullptr for
  // other expressions.
  llvm::Value* recordFieldTarget(ExprId target, TypeId& fieldType);
  llvm::Value* elementPointerOf(llvm::Value* array, TypeId arrayType, llvm::Value* index,
                                TypeId indexType);
  llvm::Value* wrapIndex(llvm::Value* index, TypeId indexType, llvm::Value* extent);
  llvm::Value* loadElement(llvm::Value* ptr, TypeId elementType);
  void storeElement(llvm::Value* ptr, llvm::Value* value, TypeId elementType);
  llvm::Value* specialRegister(llvm::Intrinsic::ID id, uint64_t lo, uint64_t hi);
  llvm::Value* threadIndexPart(Intrinsic kind, unsigned dim);
  llvm::Value* gridPart(bool size, unsigned dim);
  llvm::Value* callLibdevice(std::string_view base, TypeId t, std::vector<llvm::Value*> args);
  llvm::Value* floatDivmod(llvm::Value* a, llvm::Value* b, TypeId t, bool wantMod);
  llvm::Value* entryAlloca(llvm::Type* t, llvm::Value* count = nullptr);
  void emitGridSync();
  llvm::Value* emitShuffle(Intrinsic kind, std::span<const ExprId> args);

  ModuleLowering& ml_;
  const Ast& ast_;
  const FunctionInstance& inst_;
  const JitFunction& fn_;
  llvm::Function* function_;
  llvm::LLVMContext& context_;
  llvm::IRBuilder<> builder_;
  llvm::BasicBlock* entry_ = nullptr;
  std::map<std::string, llvm::AllocaInst*> vars_;
  std::vector<LoopTargets> loops_;
  llvm::DISubprogram* subprogram_ = nullptr;
  unsigned sharedCounter_ = 0;
  // debug=True kernels: the error code of each assert/raise statement.
  std::map<uint32_t, uint32_t> errorCodes_;
  // The statement being lowered (for the error sites of slice assignments).
  uint32_t currentStmt_ = 0;

public:
  // The codes given to this instance's error sites (for the manifest).
  std::vector<KernelInfo::Error> errors;

private:
  void reportError(uint32_t stmt);
};

class ModuleLowering {
public:
  ModuleLowering(const Ast& ast, const TypedModule& typed, llvm::LLVMContext& context,
                 const LoweringOptions& options)
      : ast_(ast), typed_(typed), context_(context), options_(options) {}

  LoweredModule run();

  const Ast& ast() const { return ast_; }
  const TypedModule& typed() const { return typed_; }
  TypeTable& types() { return const_cast<TypeTable&>(typed_.module.types); }
  llvm::LLVMContext& context() { return context_; }
  llvm::Module& module() { return *module_; }
  llvm::Function* function(int instance) { return functions_[instance]; }
  llvm::DIBuilder* di() { return di_.get(); }
  llvm::DIFile* diFile() { return diFile_; }
  llvm::Function* powHelper(TypeId base, TypeId exponent);
  llvm::GlobalVariable* dynamicShared();
  void noteDynamicShared(const FunctionInstance& inst) { dynamicUsers_.insert(&inst); }
  void noteCooperative(const FunctionInstance& inst) { cooperativeUsers_.insert(&inst); }
  llvm::GlobalVariable* gridBarrier();
  llvm::GlobalVariable* constArrayGlobal(uint32_t index);
  // debug=True: the module's error word (0, or the code of the first failing
  // assert/raise), and the next site code.
  llvm::GlobalVariable* errorWord();
  uint32_t nextErrorCode() { return ++errorCodes_; }
  // A NUL-terminated string in constant memory (deduplicated), as a generic pointer.
  llvm::Value* stringConstant(const std::string& text, llvm::IRBuilder<>& builder);

  llvm::Type* llvmType(TypeId t);
  llvm::Type* memoryType(TypeId t);

private:
  void declare();
  void appendParams(TypeId t, std::vector<llvm::Type*>& params);
  // Leaves lowering/array_params.h's record of `inst`'s array parameters on
  // `f` (nothing when it takes no array).
  void recordArrayParams(const FunctionInstance& inst, llvm::Function* f);

  const Ast& ast_;
  const TypedModule& typed_;
  llvm::LLVMContext& context_;
  const LoweringOptions& options_;
  std::unique_ptr<llvm::Module> module_;
  std::vector<llvm::Function*> functions_;
  std::unique_ptr<llvm::DIBuilder> di_;
  llvm::DIFile* diFile_ = nullptr;
  std::map<std::pair<uint32_t, uint32_t>, llvm::Function*> powHelpers_;
  llvm::GlobalVariable* dynamicShared_ = nullptr;
  std::set<const FunctionInstance*> dynamicUsers_;
  std::set<const FunctionInstance*> cooperativeUsers_;
  llvm::GlobalVariable* gridBarrier_ = nullptr;
  std::map<uint32_t, llvm::GlobalVariable*> constArrays_;
  std::map<std::string, llvm::GlobalVariable*> strings_;
  llvm::GlobalVariable* errorWord_ = nullptr;
  uint32_t errorCodes_ = 0;
};

// ---------------------------------------------------------------------------
// Module level

llvm::Type* ModuleLowering::llvmType(TypeId id) {
  const Type& t = types().get(id);
  switch (t.kind) {
    case TypeKind::None:
      return llvm::Type::getVoidTy(context_);
    case TypeKind::Bool:
      return llvm::Type::getInt1Ty(context_);
    case TypeKind::Int:
      return llvm::Type::getIntNTy(context_, t.bits);
    case TypeKind::Float:
      if (t.bits == 16) return llvm::Type::getHalfTy(context_);
      return t.bits == 32 ? llvm::Type::getFloatTy(context_) : llvm::Type::getDoubleTy(context_);
    case TypeKind::Complex: {
      // {real, imaginary}, as NumPy stores them.
      llvm::Type* part = t.bits == 64 ? llvm::Type::getFloatTy(context_) : llvm::Type::getDoubleTy(context_);
      return llvm::StructType::get(context_, {part, part});
    }
    case TypeKind::Array: {
      llvm::Type* i64 = llvm::Type::getInt64Ty(context_);
      llvm::Type* dims = llvm::ArrayType::get(i64, t.ndim);
      return llvm::StructType::get(context_, {llvm::PointerType::get(context_, 0), dims, dims});
    }
    case TypeKind::Tuple: {
      std::vector<llvm::Type*> elements;
      for (TypeId e : t.elements) elements.push_back(llvmType(e));
      return llvm::StructType::get(context_, elements);
    }
    case TypeKind::Pointer:
    case TypeKind::Record:
      // A generic pointer, as CUDA C++ sees `float*`; a record value is the
      // address of the record (numba's records in arrays are references).
      return llvm::PointerType::get(context_, 0);
    case TypeKind::Tile:
      // Tiles live in registers per thread (lowering/tile/tile_lower.cpp).
      break;
  }
  llvm_unreachable("unknown type kind");
}

llvm::Type* ModuleLowering::memoryType(TypeId id) {
  if (types().isBool(id)) return llvm::Type::getInt8Ty(context_);
  if (types().isRecord(id)) {
    return llvm::ArrayType::get(llvm::Type::getInt8Ty(context_), types().get(id).size);
  }
  return llvmType(id);
}

void ModuleLowering::appendParams(TypeId id, std::vector<llvm::Type*>& params) {
  const Type& t = types().get(id);
  switch (t.kind) {
    case TypeKind::Bool:
      params.push_back(llvm::Type::getInt8Ty(context_));
      return;
    case TypeKind::Array:
      params.push_back(llvm::PointerType::get(context_, 0));
      for (unsigned d = 0; d < 2u * t.ndim; ++d) params.push_back(llvm::Type::getInt64Ty(context_));
      return;
    case TypeKind::Tuple:
      for (TypeId e : std::vector<TypeId>(t.elements)) appendParams(e, params);
      return;
    case TypeKind::Complex:
      // docs/ABI.md: two floats (real, imaginary).
      params.push_back(llvmType(types().complexPart(id)));
      params.push_back(llvmType(types().complexPart(id)));
      return;
    default:
      params.push_back(llvmType(id));
      return;
  }
}

void ModuleLowering::declare() {
  for (size_t i = 0; i < typed_.instances.size(); ++i) {
    const FunctionInstance& inst = typed_.instances[i];
    if (typed_.module.functions[inst.function].tileHelper) {
      // Tile helpers are inlined where they are called (tile_lower.cpp).
      functions_.push_back(nullptr);
      continue;
    }
    std::vector<llvm::Type*> params;
    llvm::Type* ret;
    if (inst.isKernel) {
      for (TypeId a : inst.argTypes) appendParams(a, params);
      ret = llvm::Type::getVoidTy(context_);
    } else {
      for (TypeId a : inst.argTypes) params.push_back(llvmType(a));
      ret = llvmType(inst.returnType);
    }
    auto* type = llvm::FunctionType::get(ret, params, false);
    auto* f = llvm::Function::Create(
        type, inst.isKernel ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
        inst.symbol, module_.get());
    f->addFnAttr(llvm::Attribute::NoUnwind);
    const JitFunction& fn = typed_.module.functions[inst.function];
    if (inst.isKernel) {
      f->setCallingConv(llvm::CallingConv::PTX_Kernel);
      llvm::NamedMDNode* annotations = module_->getOrInsertNamedMetadata("nvvm.annotations");
      llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
      llvm::Metadata* kernel[] = {llvm::ValueAsMetadata::get(f),
                                  llvm::MDString::get(context_, "kernel"),
                                  llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, 1))};
      annotations->addOperand(llvm::MDNode::get(context_, kernel));
      if (fn.options.maxRegisters != 0) {
        llvm::Metadata* maxnreg[] = {
            llvm::ValueAsMetadata::get(f), llvm::MDString::get(context_, "maxnreg"),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, fn.options.maxRegisters))};
        annotations->addOperand(llvm::MDNode::get(context_, maxnreg));
      }
    } else if (fn.options.forceinline) {
      f->addFnAttr(llvm::Attribute::AlwaysInline);
    }
    if (inst.isKernel && !inst.tile) recordArrayParams(inst, f);
    // Name the parameters after the Python ones (readable IR and PTX).
    unsigned k = 0;
    for (size_t p = 0; p < inst.argTypes.size() && p < fn.params.size(); ++p) {
      if (!inst.isKernel) {
        f->getArg(k++)->setName(fn.params[p]);
        continue;
      }
      std::vector<llvm::Type*> flat;
      appendParams(inst.argTypes[p], flat);
      for (size_t j = 0; j < flat.size(); ++j) {
        f->getArg(k++)->setName(flat.size() == 1 ? fn.params[p]
                                                 : fn.params[p] + "." + std::to_string(j));
      }
    }
    functions_.push_back(f);
  }
}

void ModuleLowering::recordArrayParams(const FunctionInstance& inst, llvm::Function* f) {
  llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
  llvm::Type* i64 = llvm::Type::getInt64Ty(context_);
  const llvm::DataLayout& layout = module_->getDataLayout();
  std::vector<llvm::Metadata*> arrays;
  unsigned param = 0;
  std::function<void(TypeId)> visit = [&](TypeId id) {
    const Type& t = types().get(id);
    if (t.kind == TypeKind::Array) {
      uint64_t itemsize = layout.getTypeAllocSize(memoryType(t.element));
      llvm::Metadata* fields[] = {
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, param)),
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, t.ndim)),
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, itemsize))};
      arrays.push_back(llvm::MDNode::get(context_, fields));
    }
    if (t.kind == TypeKind::Tuple) {
      for (TypeId e : std::vector<TypeId>(t.elements)) visit(e);
      return;
    }
    std::vector<llvm::Type*> flat;
    appendParams(id, flat);
    param += static_cast<unsigned>(flat.size());
  };
  for (TypeId a : inst.argTypes) visit(a);
  if (!arrays.empty()) {
    f->setMetadata(kArrayParamsMetadata, llvm::MDNode::get(context_, arrays));
  }
}

llvm::Function* ModuleLowering::powHelper(TypeId base, TypeId exponent) {
  auto key = std::make_pair(base.index, exponent.index);
  auto it = powHelpers_.find(key);
  if (it != powHelpers_.end()) return it->second;
  llvm::Type* bt = llvmType(base);
  llvm::Type* et = llvmType(exponent);
  bool isFloat = types().isFloat(base);
  bool expSigned = types().get(exponent).isSigned;
  std::string name = "pykc.pow." + types().abiCode(base) + "." + types().abiCode(exponent);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(bt, {bt, et}, false),
                                   llvm::GlobalValue::InternalLinkage, name, module_.get());
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Value* x = f->getArg(0);
  llvm::Value* n = f->getArg(1);
  llvm::IRBuilder<> b(context_);
  auto* entry = llvm::BasicBlock::Create(context_, "entry", f);
  auto* loop = llvm::BasicBlock::Create(context_, "loop", f);
  auto* done = llvm::BasicBlock::Create(context_, "done", f);
  b.SetInsertPoint(entry);
  llvm::Value* negative = expSigned ? b.CreateICmpSLT(n, llvm::ConstantInt::get(et, 0))
                                    : b.getFalse();
  llvm::Value* magnitude = expSigned ? b.CreateSelect(negative, b.CreateNeg(n), n) : n;
  llvm::Value* one = isFloat ? llvm::ConstantFP::get(bt, 1.0) : llvm::ConstantInt::get(bt, 1);
  llvm::Value* isZero = b.CreateICmpEQ(magnitude, llvm::ConstantInt::get(et, 0));
  b.CreateCondBr(isZero, done, loop);
  // Square and multiply.
  b.SetInsertPoint(loop);
  llvm::PHINode* result = b.CreatePHI(bt, 2);
  llvm::PHINode* power = b.CreatePHI(bt, 2);
  llvm::PHINode* rest = b.CreatePHI(et, 2);
  result->addIncoming(one, entry);
  power->addIncoming(x, entry);
  rest->addIncoming(magnitude, entry);
  llvm::Value* odd = b.CreateTrunc(rest, b.getInt1Ty());
  llvm::Value* times = isFloat ? b.CreateFMul(result, power) : b.CreateMul(result, power);
  llvm::Value* nextResult = b.CreateSelect(odd, times, result);
  llvm::Value* nextPower = isFloat ? b.CreateFMul(power, power) : b.CreateMul(power, power);
  llvm::Value* nextRest = b.CreateLShr(rest, llvm::ConstantInt::get(et, 1));
  result->addIncoming(nextResult, loop);
  power->addIncoming(nextPower, loop);
  rest->addIncoming(nextRest, loop);
  b.CreateCondBr(b.CreateICmpEQ(nextRest, llvm::ConstantInt::get(et, 0)), done, loop);
  b.SetInsertPoint(done);
  llvm::PHINode* value = b.CreatePHI(bt, 2);
  value->addIncoming(one, entry);
  value->addIncoming(nextResult, loop);
  llvm::Value* out = value;
  if (isFloat) {
    out = b.CreateSelect(negative, b.CreateFDiv(one, value), value);
  } else if (expSigned) {
    // numba: a negative integer exponent gives 1 for base 1, +-1 for base -1,
    // else 0.
    llvm::Value* isOne = b.CreateICmpEQ(x, one);
    llvm::Value* isMinusOne = b.CreateICmpEQ(x, llvm::ConstantInt::get(bt, -1, true));
    llvm::Value* oddExp = b.CreateTrunc(magnitude, b.getInt1Ty());
    llvm::Value* minusOneResult =
        b.CreateSelect(oddExp, llvm::ConstantInt::get(bt, -1, true), one);
    llvm::Value* negResult = b.CreateSelect(
        isOne, one, b.CreateSelect(isMinusOne, minusOneResult, llvm::ConstantInt::get(bt, 0)));
    out = b.CreateSelect(negative, negResult, value);
  }
  b.CreateRet(out);
  powHelpers_[key] = f;
  return f;
}

llvm::GlobalVariable* ModuleLowering::dynamicShared() {
  if (dynamicShared_ == nullptr) {
    auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context_), 0);
    dynamicShared_ = new llvm::GlobalVariable(
        *module_, type, false, llvm::GlobalValue::ExternalLinkage, nullptr, "pykc_dynamic_shared",
        nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    dynamicShared_->setAlignment(llvm::Align(16));
  }
  return dynamicShared_;
}

// The arrival counter of cuda.cg.this_grid().sync(): a global word that
// every barrier moves on by exactly 2**31 (see emitGridSync).
llvm::GlobalVariable* ModuleLowering::gridBarrier() {
  if (gridBarrier_ == nullptr) {
    llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
    gridBarrier_ = new llvm::GlobalVariable(*module_, i32, false, llvm::GlobalValue::InternalLinkage,
                                            llvm::ConstantInt::get(i32, 0), "pykc_grid_barrier",
                                            nullptr, llvm::GlobalValue::NotThreadLocal, 1);
    gridBarrier_->setAlignment(llvm::Align(4));
  }
  return gridBarrier_;
}

// The `.const` global of a module-level array literal (cuda.const.array_like,
// or the array read directly: numba freezes both), made on first use.
llvm::GlobalVariable* ModuleLowering::constArrayGlobal(uint32_t index) {
  auto it = constArrays_.find(index);
  if (it != constArrays_.end()) return it->second;
  const ConstArrayData& data = typed_.module.constArrays[index];
  const Type& et = types().get(data.element);
  llvm::Type* elementType = memoryType(data.element);
  std::vector<llvm::Constant*> values;
  for (const ConstValue& v : data.values) {
    double f = v.kind == ConstValue::Kind::Float ? v.floatValue
               : v.kind == ConstValue::Kind::Int ? static_cast<double>(v.intValue)
                                                 : (v.boolValue ? 1.0 : 0.0);
    int64_t i = v.kind == ConstValue::Kind::Float ? static_cast<int64_t>(v.floatValue)
                : v.kind == ConstValue::Kind::Int ? v.intValue
                                                  : (v.boolValue ? 1 : 0);
    if (et.kind == TypeKind::Float) {
      values.push_back(llvm::ConstantFP::get(elementType, f));
    } else if (et.kind == TypeKind::Bool) {
      values.push_back(llvm::ConstantInt::get(elementType, truthOf(v) ? 1 : 0));
    } else {
      values.push_back(llvm::ConstantInt::get(elementType, static_cast<uint64_t>(i), et.isSigned));
    }
  }
  auto* type = llvm::ArrayType::get(elementType, values.size());
  auto* g = new llvm::GlobalVariable(*module_, type, /*isConstant=*/true,
                                     llvm::GlobalValue::InternalLinkage,
                                     llvm::ConstantArray::get(type, values), "pykc_const_" + std::to_string(index),
                                     nullptr, llvm::GlobalValue::NotThreadLocal, 4);
  g->setAlignment(llvm::Align(std::max<unsigned>(types().byteSize(data.element), 4)));
  constArrays_[index] = g;
  return g;
}

llvm::GlobalVariable* ModuleLowering::errorWord() {
  if (errorWord_ == nullptr) {
    llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
    // Visible, so a launcher can find it by name (cuModuleGetGlobal).
    errorWord_ = new llvm::GlobalVariable(*module_, i32, false, llvm::GlobalValue::ExternalLinkage,
                                          llvm::ConstantInt::get(i32, 0), "pykc_error", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, 1);
    errorWord_->setAlignment(llvm::Align(4));
  }
  return errorWord_;
}

llvm::Value* ModuleLowering::stringConstant(const std::string& text, llvm::IRBuilder<>& builder) {
  auto it = strings_.find(text);
  llvm::GlobalVariable* g;
  if (it != strings_.end()) {
    g = it->second;
  } else {
    llvm::Constant* init = llvm::ConstantDataArray::getString(context_, text, true);
    g = new llvm::GlobalVariable(*module_, init->getType(), true, llvm::GlobalValue::InternalLinkage,
                                 init, "pykc_str_" + std::to_string(strings_.size()), nullptr,
                                 llvm::GlobalValue::NotThreadLocal, 4);
    strings_[text] = g;
  }
  return builder.CreateAddrSpaceCast(g, builder.getPtrTy(0));
}

LoweredModule ModuleLowering::run() {
  const SourceFile* source = ast_.source();
  std::string path = source ? source->path() : std::string("<kernels>");
  module_ = std::make_unique<llvm::Module>(path, context_);
  module_->setTargetTriple(kTriple);
  module_->setDataLayout(kDataLayout);
  module_->setSourceFileName(path);
  LoweredModule result;
  bool lineInfo = options_.lineInfo;
  for (const FunctionInstance& inst : typed_.instances) {
    if (typed_.module.functions[inst.function].options.lineinfo) {
      lineInfo = true;
      result.wantsLineInfo = true;
    }
  }
  if (lineInfo) {
    di_ = std::make_unique<llvm::DIBuilder>(*module_);
    diFile_ = di_->createFile(path, "");
    di_->createCompileUnit(llvm::dwarf::DW_LANG_Python, diFile_, "pykc", /*isOptimized=*/true,
                           "", 0, "", llvm::DICompileUnit::LineTablesOnly);
    module_->addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                           llvm::DEBUG_METADATA_VERSION);
    module_->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 2);
  }
  declare();
  std::vector<std::vector<KernelInfo::Error>> errors(typed_.instances.size());
  std::vector<uint32_t> tileThreads(typed_.instances.size(), 0);
  std::vector<uint32_t> tileShared(typed_.instances.size(), 0);
  std::vector<uint32_t> tileRegisters(typed_.instances.size(), 0);
  for (size_t i = 0; i < typed_.instances.size(); ++i) {
    if (typed_.instances[i].tile) {
      if (functions_[i] != nullptr) {
        TileTarget target;
        target.wgmma = options_.arch == "sm_90a";
        target.maxSharedBytes = maxSharedPerBlock(options_.arch);
        TileKernelShape shape = lowerTileKernel(ast_, typed_, typed_.instances[i], functions_[i], target);
        tileThreads[i] = shape.threads;
        tileShared[i] = shape.dynamicSharedBytes;
        tileRegisters[i] = shape.registerTarget;
      }
      continue;
    }
    FunctionLowering lowering(*this, typed_.instances[i], functions_[i]);
    lowering.run();
    errors[i] = std::move(lowering.errors);
  }
  if (di_) di_->finalize();
  // Kernels that reach dynamic shared memory.
  for (uint32_t k = 0; k < typed_.kernelCount; ++k) {
    std::vector<bool> seen(typed_.instances.size(), false);
    std::vector<uint32_t> stack{k};
    bool uses = false;
    bool cooperative = false;
    while (!stack.empty()) {
      uint32_t i = stack.back();
      stack.pop_back();
      if (seen[i]) continue;
      seen[i] = true;
      uses = uses || dynamicUsers_.count(&typed_.instances[i]) != 0;
      cooperative = cooperative || cooperativeUsers_.count(&typed_.instances[i]) != 0;
      for (int32_t c : typed_.instances[i].callees) {
        if (c >= 0) stack.push_back(static_cast<uint32_t>(c));
      }
    }
    result.kernels.push_back(KernelInfo{typed_.instances[k].symbol, uses, cooperative, errors[k]});
    result.kernels.back().tileThreads = tileThreads[k];
    result.kernels.back().tileSharedBytes = tileShared[k];
    result.kernels.back().tileRegisterTarget = tileRegisters[k];
  }
  result.module = std::move(module_);
  return result;
}

// ---------------------------------------------------------------------------
// Function level

FunctionLowering::FunctionLowering(ModuleLowering& ml, const FunctionInstance& inst,
                                   llvm::Function* function)
    : ml_(ml), ast_(ml.ast()), inst_(inst), fn_(ml.typed().module.functions[inst.function]),
      function_(function), context_(ml.context()), builder_(ml.context()) {}

TypeTable& FunctionLowering::types() { return ml_.types(); }
llvm::Type* FunctionLowering::llvmType(TypeId t) { return ml_.llvmType(t); }
llvm::Type* FunctionLowering::memoryType(TypeId t) { return ml_.memoryType(t); }

llvm::Value* FunctionLowering::entryAlloca(llvm::Type* t, llvm::Value* count) {
  llvm::IRBuilder<> b(entry_, entry_->begin());
  return b.CreateAlloca(t, count);
}

void FunctionLowering::setLocation(const NodeRange& r) {
  if (subprogram_ == nullptr || r.lineno == 0) return;
  builder_.SetCurrentDebugLocation(
      llvm::DILocation::get(context_, r.lineno, r.colOffset + 1, subprogram_));
}

void FunctionLowering::run() {
  const Stmt& s = ast_.stmt(fn_.stmt);
  if (ml_.di() != nullptr) {
    llvm::DIBuilder& di = *ml_.di();
    auto* type = di.createSubroutineType(di.getOrCreateTypeArray({}));
    subprogram_ = di.createFunction(ml_.diFile(), fn_.name, inst_.symbol, ml_.diFile(),
                                    s.range.lineno, type, s.range.lineno,
                                    llvm::DINode::FlagPrototyped,
                                    llvm::DISubprogram::SPFlagDefinition |
                                        llvm::DISubprogram::SPFlagOptimized);
    function_->setSubprogram(subprogram_);
  }
  llvm::FastMathFlags flags;
  if (inst_.fastmath) {
    flags.setFast();
  } else {
    // numba-cuda compiles with NVVM's default -fma=1: a*b+c may become an fma.
    flags.setAllowContract(true);
  }
  builder_.setFastMathFlags(flags);
  entry_ = llvm::BasicBlock::Create(context_, "entry", function_);
  builder_.SetInsertPoint(entry_);
  // Variables, by name (deterministic).
  for (const auto& [name, type] : inst_.variables) {
    vars_[name] = builder_.CreateAlloca(llvmType(type), nullptr, name);
  }
  // Parameters.
  unsigned k = 0;
  for (size_t p = 0; p < inst_.argTypes.size(); ++p) {
    TypeId t = inst_.argTypes[p];
    llvm::Value* value;
    if (!inst_.isKernel) {
      value = function_->getArg(k++);
    } else {
      std::function<llvm::Value*(TypeId)> rebuild = [&](TypeId id) -> llvm::Value* {
        const Type& tt = types().get(id);
        switch (tt.kind) {
          case TypeKind::Bool:
            return builder_.CreateICmpNE(function_->getArg(k++), builder_.getInt8(0));
          case TypeKind::Array: {
            ArrayParts parts;
            parts.data = function_->getArg(k++);
            for (unsigned d = 0; d < tt.ndim; ++d) parts.shape.push_back(function_->getArg(k++));
            for (unsigned d = 0; d < tt.ndim; ++d) parts.strides.push_back(function_->getArg(k++));
            return makeArray(parts, id);
          }
          case TypeKind::Complex: {
            llvm::Value* agg = llvm::PoisonValue::get(llvmType(id));
            agg = builder_.CreateInsertValue(agg, function_->getArg(k++), 0);
            return builder_.CreateInsertValue(agg, function_->getArg(k++), 1);
          }
          case TypeKind::Tuple: {
            llvm::Value* agg = llvm::PoisonValue::get(llvmType(id));
            std::vector<TypeId> elements = tt.elements;
            for (unsigned e = 0; e < elements.size(); ++e) {
              agg = builder_.CreateInsertValue(agg, rebuild(elements[e]), e);
            }
            return agg;
          }
          default:
            return function_->getArg(k++);
        }
      };
      value = rebuild(t);
    }
    if (p < fn_.params.size()) {
      auto it = vars_.find(fn_.params[p]);
      if (it != vars_.end()) {
        builder_.CreateStore(convert(value, t, inst_.variables.at(fn_.params[p])), it->second);
      }
    }
  }
  for (const ErrorSite& site : inst_.errorSites) {
    uint32_t code = ml_.nextErrorCode();
    errorCodes_[site.stmt] = code;
    errors.push_back(KernelInfo::Error{code, site.type, site.message, site.line});
  }
  const ast::FunctionDef& def = *s.functionDef();
  emitBody(ast_.list(def.body));
  if (!terminated()) {
    setLocation(s.range);
    if (function_->getReturnType()->isVoidTy()) {
      builder_.CreateRetVoid();
    } else {
      builder_.CreateRet(llvm::Constant::getNullValue(function_->getReturnType()));
    }
  }
}

// A grid-wide barrier for cooperative launches (all blocks resident), as
// CUDA's cooperative groups do it: thread 0 of each block adds 1 to the
// counter, block (0,0,0) adds 2**31 - (blocks - 1), so the counter's top bit
// flips exactly when the last block arrives; each block waits for the flip.
void FunctionLowering::emitGridSync() {
  llvm::Module& m = ml_.module();
  auto barrier = [&] {
    builder_.CreateCall(llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::nvvm_barrier0));
  };
  auto fence = [&] {
    builder_.CreateCall(llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::nvvm_membar_gl));
  };
  barrier();
  llvm::Value* tid = builder_.CreateOr(
      builder_.CreateOr(threadIndexPart(Intrinsic::ThreadIdx, 0), threadIndexPart(Intrinsic::ThreadIdx, 1)),
      threadIndexPart(Intrinsic::ThreadIdx, 2));
  auto* master = llvm::BasicBlock::Create(context_, "gridsync.arrive", function_);
  auto* wait = llvm::BasicBlock::Create(context_, "gridsync.wait", function_);
  auto* done = llvm::BasicBlock::Create(context_, "gridsync.done", function_);
  builder_.CreateCondBr(builder_.CreateICmpEQ(tid, builder_.getInt32(0)), master, done);
  builder_.SetInsertPoint(master);
  llvm::Value* first = builder_.CreateICmpEQ(
      builder_.CreateOr(builder_.CreateOr(threadIndexPart(Intrinsic::BlockIdx, 0),
                                          threadIndexPart(Intrinsic::BlockIdx, 1)),
                        threadIndexPart(Intrinsic::BlockIdx, 2)),
      builder_.getInt32(0));
  llvm::Value* blocks = builder_.CreateMul(
      builder_.CreateMul(threadIndexPart(Intrinsic::GridDim, 0), threadIndexPart(Intrinsic::GridDim, 1)),
      threadIndexPart(Intrinsic::GridDim, 2));
  llvm::Value* add = builder_.CreateSelect(
      first, builder_.CreateSub(builder_.getInt32(0x80000000u), builder_.CreateSub(blocks, builder_.getInt32(1))),
      builder_.getInt32(1));
  llvm::GlobalVariable* counter = ml_.gridBarrier();
  fence();
  llvm::Value* old = builder_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, counter, add, llvm::Align(4),
                                              llvm::AtomicOrdering::Monotonic, deviceScope());
  builder_.CreateBr(wait);
  builder_.SetInsertPoint(wait);
  llvm::LoadInst* current = builder_.CreateLoad(builder_.getInt32Ty(), counter);
  current->setVolatile(true);
  llvm::Value* flipped = builder_.CreateICmpNE(
      builder_.CreateAnd(builder_.CreateXor(old, current), builder_.getInt32(0x80000000u)),
      builder_.getInt32(0));
  auto* after = llvm::BasicBlock::Create(context_, "gridsync.arrived", function_);
  builder_.CreateCondBr(flipped, after, wait);
  builder_.SetInsertPoint(after);
  fence();
  builder_.CreateBr(done);
  builder_.SetInsertPoint(done);
  barrier();
}

// shfl.sync on 32-bit lanes; 64-bit values move as two halves.
llvm::Value* FunctionLowering::emitShuffle(Intrinsic kind, std::span<const ExprId> args) {
  using namespace llvm::Intrinsic;
  llvm::Module& m = ml_.module();
  llvm::Value* mask = emitExprAs(args[0], types().intType(32, false));
  TypeId valueType = typeOf(args[1]);
  llvm::Value* value = emitExpr(args[1]);
  llvm::Value* lane = emitExprAs(args[2], types().int32());
  ID ids[] = {nvvm_shfl_sync_idx_i32, nvvm_shfl_sync_up_i32, nvvm_shfl_sync_down_i32,
              nvvm_shfl_sync_bfly_i32};
  unsigned which = kind == Intrinsic::ShflSync     ? 0
                   : kind == Intrinsic::ShflUpSync ? 1
                   : kind == Intrinsic::ShflDownSync ? 2
                                                     : 3;
  // The clamp operand for a full 32-lane warp.
  llvm::Value* clamp = builder_.getInt32(which == 1 ? 0 : 0x1f);
  llvm::Function* shfl = llvm::Intrinsic::getDeclaration(&m, ids[which]);
  auto shuffle32 = [&](llvm::Value* v) {
    return builder_.CreateCall(shfl, {mask, v, lane, clamp});
  };
  llvm::Type* original = value->getType();
  unsigned bits = original->getPrimitiveSizeInBits();
  if (bits == 32) {
    llvm::Value* asInt = builder_.CreateBitCast(value, builder_.getInt32Ty());
    return builder_.CreateBitCast(shuffle32(asInt), original);
  }
  llvm::Value* asInt = builder_.CreateBitCast(value, builder_.getInt64Ty());
  llvm::Value* lo = shuffle32(builder_.CreateTrunc(asInt, builder_.getInt32Ty()));
  llvm::Value* hi = shuffle32(builder_.CreateTrunc(builder_.CreateLShr(asInt, 32), builder_.getInt32Ty()));
  llvm::Value* joined = builder_.CreateOr(
      builder_.CreateZExt(lo, builder_.getInt64Ty()),
      builder_.CreateShl(builder_.CreateZExt(hi, builder_.getInt64Ty()), 32));
  (void)valueType;
  return builder_.CreateBitCast(joined, original);
}

// match.any/all.sync on the value's bits (floats compare as bit patterns, as
// CUDA's __match_*_sync do). numba types the mask and the result int32.
llvm::Value* FunctionLowering::emitMatch(Intrinsic kind, std::span<const ExprId> args,
                                         TypeId valueType) {
  using namespace llvm::Intrinsic;
  llvm::Value* mask = emitExprAs(args[0], types().intType(32, false));
  llvm::Value* value = emitExprAs(args[1], valueType);
  bool wide = types().get(valueType).bits == 64;
  value = builder_.CreateBitCast(value, wide ? builder_.getInt64Ty() : builder_.getInt32Ty());
  ID iid = kind == Intrinsic::MatchAnySync ? (wide ? nvvm_match_any_sync_i64 : nvvm_match_any_sync_i32)
                                           : (wide ? nvvm_match_all_sync_i64p : nvvm_match_all_sync_i32p);
  llvm::Value* result = builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid), {mask, value});
  if (kind == Intrinsic::MatchAnySync) return result;
  // {i32 mask, i1 predicate}: already the tuple's layout.
  return result;
}

// print(...) as numba-cuda does it (printimpl.py): one vprintf call whose
// format joins `%lld`/`%llu` (integers, widened to 64 bits), `%f` (floats, as
// double), `%s` (bools as True/False, string literals) and `(a, b)` for
// tuples with spaces, ending in a newline.
void FunctionLowering::emitPrint(std::span<const ExprId> args) {
  std::vector<std::string> formats;
  std::vector<llvm::Value*> values;
  std::function<std::string(llvm::Value*, TypeId)> item = [&](llvm::Value* v, TypeId t) -> std::string {
    const Type& tt = types().get(t);
    switch (tt.kind) {
      case TypeKind::Int:
        values.push_back(tt.isSigned ? builder_.CreateSExt(v, builder_.getInt64Ty())
                                     : builder_.CreateZExt(v, builder_.getInt64Ty()));
        return tt.isSigned ? "%lld" : "%llu";
      case TypeKind::Float:
        values.push_back(builder_.CreateFPExt(v, builder_.getDoubleTy()));
        return "%f";
      case TypeKind::Bool:
        values.push_back(builder_.CreateSelect(v, ml_.stringConstant("True", builder_),
                                               ml_.stringConstant("False", builder_)));
        return "%s";
      case TypeKind::Tuple: {
        std::vector<TypeId> elements = tt.elements;
        std::string out = "(";
        for (unsigned i = 0; i < elements.size(); ++i) {
          out += (i ? ", " : "") + item(builder_.CreateExtractValue(v, i), elements[i]);
        }
        return out + (elements.size() == 1 ? ",)" : ")");
      }
      default:
        assert(false && "the checker rejects this print argument");
        return "";
    }
  };
  for (ExprId a : args) {
    const Expr& e = ast_.expr(a);
    if (!typeOf(a).valid() && e.is<ast::Constant>()) {
      values.push_back(ml_.stringConstant(ast_.constantOf(a).text, builder_));
      formats.push_back("%s");
      continue;
    }
    formats.push_back(item(emitExpr(a), typeOf(a)));
  }
  std::string format;
  for (size_t k = 0; k < formats.size(); ++k) format += (k ? " " : "") + formats[k];
  format += "\n";
  llvm::Value* buffer = llvm::ConstantPointerNull::get(builder_.getPtrTy(0));
  if (!values.empty()) {
    std::vector<llvm::Type*> fields;
    for (llvm::Value* v : values) fields.push_back(v->getType());
    auto* type = llvm::StructType::get(context_, fields);
    llvm::Value* slot = entryAlloca(type);
    for (unsigned k = 0; k < values.size(); ++k) {
      builder_.CreateStore(values[k], builder_.CreateStructGEP(type, slot, k));
    }
    buffer = slot;
  }
  auto vprintf = ml_.module().getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(builder_.getInt32Ty(),
                                         {builder_.getPtrTy(0), builder_.getPtrTy(0)}, false));
  builder_.CreateCall(vprintf, {ml_.stringConstant(format, builder_), buffer});
}

// cuda.fp16.*: native half arithmetic, comparisons and min/max (maxnum, as
// CUDA's __hmax); the transcendental ones through float32 libdevice, rounded
// back to half.
llvm::Value* FunctionLowering::emitFp16(Fp16Fn fn, std::span<const ExprId> args) {
  TypeId half = types().floatType(16);
  TypeId f32 = types().float32();
  std::vector<llvm::Value*> v;
  for (ExprId a : args) v.push_back(emitExprAs(a, half));
  auto viaFloat = [&](std::string_view base) {
    llvm::Value* x = builder_.CreateFPExt(v[0], builder_.getFloatTy());
    return builder_.CreateFPTrunc(callLibdevice(base, f32, {x}), builder_.getHalfTy());
  };
  switch (fn) {
    case Fp16Fn::Hadd: return builder_.CreateFAdd(v[0], v[1]);
    case Fp16Fn::Hsub: return builder_.CreateFSub(v[0], v[1]);
    case Fp16Fn::Hmul: return builder_.CreateFMul(v[0], v[1]);
    case Fp16Fn::Hdiv: return builder_.CreateFDiv(v[0], v[1]);
    case Fp16Fn::Hneg: return builder_.CreateFNeg(v[0]);
    case Fp16Fn::Habs: return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v[0]);
    case Fp16Fn::Hfma:
      return builder_.CreateIntrinsic(llvm::Intrinsic::fma, {v[0]->getType()}, {v[0], v[1], v[2]});
    case Fp16Fn::Hsin: return viaFloat("sin");
    case Fp16Fn::Hcos: return viaFloat("cos");
    case Fp16Fn::Hlog: return viaFloat("log");
    case Fp16Fn::Hlog2: return viaFloat("log2");
    case Fp16Fn::Hlog10: return viaFloat("log10");
    case Fp16Fn::Hexp: return viaFloat("exp");
    case Fp16Fn::Hexp2: return viaFloat("exp2");
    case Fp16Fn::Hexp10: return viaFloat("exp10");
    case Fp16Fn::Hsqrt: return viaFloat("sqrt");
    case Fp16Fn::Hrsqrt: return viaFloat("rsqrt");
    case Fp16Fn::Hrcp: {
      llvm::Value* x = builder_.CreateFPExt(v[0], builder_.getFloatTy());
      return builder_.CreateFPTrunc(builder_.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), x),
                                    builder_.getHalfTy());
    }
    case Fp16Fn::Hceil: return viaFloat("ceil");
    case Fp16Fn::Hfloor: return viaFloat("floor");
    case Fp16Fn::Hrint: return viaFloat("rint");
    case Fp16Fn::Htrunc: return viaFloat("trunc");
    case Fp16Fn::Heq: return builder_.CreateFCmpOEQ(v[0], v[1]);
    case Fp16Fn::Hne: return builder_.CreateFCmpONE(v[0], v[1]);
    case Fp16Fn::Hgt: return builder_.CreateFCmpOGT(v[0], v[1]);
    case Fp16Fn::Hge: return builder_.CreateFCmpOGE(v[0], v[1]);
    case Fp16Fn::Hlt: return builder_.CreateFCmpOLT(v[0], v[1]);
    case Fp16Fn::Hle: return builder_.CreateFCmpOLE(v[0], v[1]);
    case Fp16Fn::Hmax: return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, v[0], v[1]);
    case Fp16Fn::Hmin: return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, v[0], v[1]);
  }
  return v[0];
}

llvm::Align FunctionLowering::elementAlign(TypeId elementType) {
  // Complex numbers need only their parts' alignment (NumPy's).
  unsigned size = types().byteSize(elementType);
  return llvm::Align(types().isComplex(elementType) ? size / 2 : size);
}

llvm::Value* FunctionLowering::makeComplex(llvm::Value* re, llvm::Value* im, TypeId t) {
  llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
  agg = builder_.CreateInsertValue(agg, re, 0);
  return builder_.CreateInsertValue(agg, im, 1);
}

// + - * / ** of complex numbers (** in complex_math.cpp); division is CPython's
// (and numba's) _Py_c_quot: scaled by the larger part of the divisor; a zero
// divisor gives NaNs.
llvm::Value* FunctionLowering::complexArith(Operator op, llvm::Value* l, llvm::Value* r, TypeId t) {
  llvm::Value* a = builder_.CreateExtractValue(l, 0);
  llvm::Value* b = builder_.CreateExtractValue(l, 1);
  llvm::Value* c = builder_.CreateExtractValue(r, 0);
  llvm::Value* d = builder_.CreateExtractValue(r, 1);
  switch (op) {
    case Operator::Add:
      return makeComplex(builder_.CreateFAdd(a, c), builder_.CreateFAdd(b, d), t);
    case Operator::Sub:
      return makeComplex(builder_.CreateFSub(a, c), builder_.CreateFSub(b, d), t);
    case Operator::Mult:
      return makeComplex(builder_.CreateFSub(builder_.CreateFMul(a, c), builder_.CreateFMul(b, d)),
                         builder_.CreateFAdd(builder_.CreateFMul(a, d), builder_.CreateFMul(b, c)), t);
    case Operator::Pow: {
      ComplexParts p = lowerComplexPow(builder_, ml_.module(), ComplexParts{a, b},
                                       ComplexParts{c, d}, inst_.fastmath);
      return makeComplex(p.re, p.im, t);
    }
    default: {
      assert(op == Operator::Div && "the checker allows + - * / ** on complex numbers");
      llvm::Type* ft = a->getType();
      auto fabs = [&](llvm::Value* v) { return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
      llvm::Value* nan = llvm::ConstantFP::getNaN(ft);
      llvm::Value* zero = llvm::ConstantFP::get(ft, 0.0);
      llvm::Value* realBigger = builder_.CreateFCmpOGE(fabs(c), fabs(d));
      // |c| >= |d|: ratio = d / c.
      llvm::Value* ratio1 = builder_.CreateFDiv(d, c);
      llvm::Value* denom1 = builder_.CreateFAdd(c, builder_.CreateFMul(d, ratio1));
      llvm::Value* re1 = builder_.CreateFDiv(builder_.CreateFAdd(a, builder_.CreateFMul(b, ratio1)), denom1);
      llvm::Value* im1 = builder_.CreateFDiv(builder_.CreateFSub(b, builder_.CreateFMul(a, ratio1)), denom1);
      llvm::Value* cZero = builder_.CreateFCmpOEQ(c, zero);
      re1 = builder_.CreateSelect(cZero, nan, re1);
      im1 = builder_.CreateSelect(cZero, nan, im1);
      // Otherwise: ratio = c / d.
      llvm::Value* ratio2 = builder_.CreateFDiv(c, d);
      llvm::Value* denom2 = builder_.CreateFAdd(builder_.CreateFMul(c, ratio2), d);
      llvm::Value* re2 = builder_.CreateFDiv(builder_.CreateFAdd(builder_.CreateFMul(a, ratio2), b), denom2);
      llvm::Value* im2 = builder_.CreateFDiv(builder_.CreateFSub(builder_.CreateFMul(b, ratio2), a), denom2);
      llvm::Value* dZero = builder_.CreateFCmpOEQ(d, zero);
      re2 = builder_.CreateSelect(dZero, nan, re2);
      im2 = builder_.CreateSelect(dZero, nan, im2);
      return makeComplex(builder_.CreateSelect(realBigger, re1, re2),
                         builder_.CreateSelect(realBigger, im1, im2), t);
    }
  }
}

// cmath.<fn> on a complex value (real arguments converted): numba-cuda's
// cmathimpl algorithms (lowering/simt/complex_math.cpp), special values included.
llvm::Value* FunctionLowering::emitCmath(ExprId id, CmathFn fn, const ast::Call& c) {
  TypeId ct = inst_.opTypes[id.index];
  TypeId pt = types().complexPart(ct);
  llvm::Type* ft = llvmType(pt);
  auto args = ast_.list(c.args);
  auto lib = [&](std::string_view name, std::vector<llvm::Value*> a) { return callLibdevice(name, pt, std::move(a)); };
  auto fabs = [&](llvm::Value* v) { return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
  auto fromParts = [&](ComplexParts p) { return makeComplex(p.re, p.im, ct); };
  if (fn == CmathFn::Rect) {
    llvm::Value* r = emitExprAs(args[0], pt);
    llvm::Value* phi = emitExprAs(args[1], pt);
    return fromParts(lowerCmathRect(builder_, ml_.module(), r, phi, inst_.fastmath));
  }
  llvm::Value* z = emitExprAs(args[0], ct);
  llvm::Value* x = builder_.CreateExtractValue(z, 0);
  llvm::Value* y = builder_.CreateExtractValue(z, 1);
  llvm::Value* inf = llvm::ConstantFP::getInfinity(ft);
  switch (fn) {
    case CmathFn::Isnan:
      return builder_.CreateOr(builder_.CreateFCmpUNO(x, x), builder_.CreateFCmpUNO(y, y));
    case CmathFn::Isinf:
      return builder_.CreateOr(builder_.CreateFCmpOEQ(fabs(x), inf), builder_.CreateFCmpOEQ(fabs(y), inf));
    case CmathFn::Isfinite:
      return builder_.CreateAnd(builder_.CreateFCmpOLT(fabs(x), inf), builder_.CreateFCmpOLT(fabs(y), inf));
    case CmathFn::Phase:
      return lib("atan2", {y, x});
    case CmathFn::Polar: {
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(typeOf(id)));
      agg = builder_.CreateInsertValue(agg, lib("hypot", {x, y}), 0);
      return builder_.CreateInsertValue(agg, lib("atan2", {y, x}), 1);
    }
    default:
      break;
  }
  llvm::Value* result =
      fromParts(lowerCmathUnary(builder_, ml_.module(), fn, ComplexParts{x, y}, inst_.fastmath));
  if (fn == CmathFn::Log && args.size() == 2) {
    // cmath.log(z, base): numba's cmath.log(z) / cmath.log(base).
    llvm::Value* base = emitExprAs(args[1], ct);
    ComplexParts b{builder_.CreateExtractValue(base, 0), builder_.CreateExtractValue(base, 1)};
    llvm::Value* logBase = fromParts(lowerCmathUnary(builder_, ml_.module(), fn, b, inst_.fastmath));
    result = complexArith(Operator::Div, result, logBase, ct);
  }
  return result;
}

// A module-level array literal: its `.const` global, as a C-ordered array value.
llvm::Value* FunctionLowering::constArray(uint32_t index, TypeId arrayType) {
  const ConstArrayData& data = ml_.typed().module.constArrays[index];
  llvm::GlobalVariable* g = ml_.constArrayGlobal(index);
  ArrayParts parts;
  parts.data = builder_.CreateAddrSpaceCast(g, builder_.getPtrTy(0));
  std::vector<int64_t> strides(data.shape.size(), 1);
  for (size_t d = data.shape.size(); d-- > 1;) strides[d - 1] = strides[d] * data.shape[d];
  for (size_t d = 0; d < data.shape.size(); ++d) {
    parts.shape.push_back(builder_.getInt64(data.shape[d]));
    parts.strides.push_back(builder_.getInt64(strides[d]));
  }
  return makeArray(parts, arrayType);
}

// `view[...] = value`: a loop nest over the view storing the scalar, or the
// element of `value` (an array of the same dimensions) at the same indices.
// numba's setitem on a view (`fancy_setslice`), or with `update` its in-place
// ufunc: a number is broadcast; an array is broadcast onto the view (missing
// leading dimensions and extents of 1 repeat with stride 0; extra leading
// dimensions must have extent 1), any other shape difference fails before an
// element is written. Elements go in C order; an overlapping source array is
// read as it is being written (numba copies it first for `=`).
void FunctionLowering::storeSlice(llvm::Value* view, TypeId viewType, llvm::Value* value,
                                  TypeId valueType, const SliceUpdate* update) {
  const Type& vt = types().get(viewType);
  TypeId element = vt.element;
  ArrayParts dst = arrayParts(view, viewType);
  bool fromArray = types().isArray(valueType);
  ArrayParts src;
  TypeId srcElement;
  std::vector<llvm::Value*> srcStrides(vt.ndim, builder_.getInt64(0));
  llvm::Value* tupleItems = nullptr;
  if (fromArray) {
    src = arrayParts(value, valueType);
    srcElement = types().get(valueType).element;
    // The unit stride the source's layout promises.
    const Type& st = types().get(valueType);
    if (st.layout == Layout::C) src.strides[st.ndim - 1] = builder_.getInt64(1);
    if (st.layout == Layout::F) src.strides[0] = builder_.getInt64(1);
    llvm::Value* mismatch = builder_.getFalse();
    llvm::Value* one = builder_.getInt64(1);
    int extra = static_cast<int>(st.ndim) - static_cast<int>(vt.ndim);
    for (int d = 0; d < extra; ++d) {
      mismatch = builder_.CreateOr(mismatch, builder_.CreateICmpNE(src.shape[d], one));
    }
    for (unsigned j = 0; j < vt.ndim; ++j) {
      int sd = static_cast<int>(j) + extra;
      if (sd < 0) continue;  // a missing leading dimension: stride 0
      llvm::Value* same = builder_.CreateICmpEQ(src.shape[sd], dst.shape[j]);
      llvm::Value* unit = builder_.CreateICmpEQ(src.shape[sd], one);
      srcStrides[j] = builder_.CreateSelect(same, src.strides[sd], builder_.getInt64(0));
      mismatch = builder_.CreateOr(mismatch, builder_.CreateNot(builder_.CreateOr(same, unit)));
    }
    sliceShapeFailure(mismatch);
  } else if (types().isTuple(valueType)) {
    // A tuple of one type into a 1-d view: its elements, converted, in a local
    // array indexed by the loop.
    const auto& elts = types().get(valueType).elements;
    auto* items = llvm::ArrayType::get(memoryType(element), elts.size());
    tupleItems = entryAlloca(items);
    for (unsigned k = 0; k < elts.size(); ++k) {
      llvm::Value* e = convert(builder_.CreateExtractValue(value, k), elts[k], element);
      storeElement(builder_.CreateConstGEP2_64(items, tupleItems, 0, k), e, element);
    }
    sliceShapeFailure(builder_.CreateICmpNE(dst.shape[0], builder_.getInt64(elts.size())));
  } else if (!update) {
    value = convert(value, valueType, element);
  }
  llvm::Type* i64 = builder_.getInt64Ty();
  std::vector<llvm::AllocaInst*> counters;
  std::vector<llvm::BasicBlock*> latches;
  std::vector<llvm::BasicBlock*> exits;
  for (unsigned d = 0; d < vt.ndim; ++d) {
    auto* counter = llvm::cast<llvm::AllocaInst>(entryAlloca(i64));
    builder_.CreateStore(builder_.getInt64(0), counter);
    auto* header = llvm::BasicBlock::Create(context_, "slice.cond", function_);
    auto* body = llvm::BasicBlock::Create(context_, "slice.body", function_);
    auto* exit = llvm::BasicBlock::Create(context_, "slice.end", function_);
    builder_.CreateBr(header);
    builder_.SetInsertPoint(header);
    builder_.CreateCondBr(builder_.CreateICmpSLT(builder_.CreateLoad(i64, counter), dst.shape[d]),
                          body, exit);
    builder_.SetInsertPoint(body);
    counters.push_back(counter);
    latches.push_back(header);
    exits.push_back(exit);
  }
  llvm::Value* dstOffset = builder_.getInt64(0);
  llvm::Value* srcOffset = builder_.getInt64(0);
  for (unsigned d = 0; d < vt.ndim; ++d) {
    llvm::Value* i = builder_.CreateLoad(i64, counters[d]);
    dstOffset = builder_.CreateAdd(dstOffset, builder_.CreateMul(i, dst.strides[d]));
    if (fromArray) srcOffset = builder_.CreateAdd(srcOffset, builder_.CreateMul(i, srcStrides[d]));
  }
  llvm::Value* item = value;
  TypeId itemType = valueType;
  if (fromArray) {
    item = loadElement(builder_.CreateGEP(memoryType(srcElement), src.data, srcOffset), srcElement);
    itemType = srcElement;
    if (!update) item = convert(item, srcElement, element);
  } else if (tupleItems) {
    item = loadElement(builder_.CreateGEP(memoryType(element), tupleItems,
                                          builder_.CreateLoad(i64, counters[0])), element);
    itemType = element;
  }
  llvm::Value* dstPtr = builder_.CreateGEP(memoryType(element), dst.data, dstOffset);
  if (update) {
    llvm::Value* l = convert(loadElement(dstPtr, element), element, update->opType);
    TypeId rhsType = update->exponent.valid() ? update->exponent : update->opType;
    llvm::Value* r = convert(item, itemType, rhsType);
    llvm::Value* result = emitArith(update->op, l, r, update->opType, update->exponent);
    item = convert(result, update->resultType, element);
  }
  storeElement(dstPtr, item, element);
  for (unsigned d = vt.ndim; d-- > 0;) {
    llvm::Value* i = builder_.CreateLoad(i64, counters[d]);
    builder_.CreateStore(builder_.CreateAdd(i, builder_.getInt64(1), "", true, true), counters[d]);
    builder_.CreateBr(latches[d]);
    builder_.SetInsertPoint(exits[d]);
  }
}

// A failed shape check of a slice assignment is numba's ValueError: reported
// through `pykc_error` in debug=True kernels; otherwise the thread ends, as
// numba's kernels return with the exception unchecked (a device function ends
// the thread with PTX `exit`, where numba returns through every caller).
void FunctionLowering::sliceShapeFailure(llvm::Value* mismatch) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(mismatch); c && c->isZero()) return;
  auto* fail = llvm::BasicBlock::Create(context_, "slice.shape_error", function_);
  auto* ok = llvm::BasicBlock::Create(context_, "slice.shape_ok", function_);
  builder_.CreateCondBr(mismatch, fail, ok,
                        llvm::MDBuilder(context_).createBranchWeights(1, 1 << 20));
  builder_.SetInsertPoint(fail);
  if (errorCodes_.count(currentStmt_)) {
    reportError(currentStmt_);
  } else if (inst_.isKernel) {
    builder_.CreateRetVoid();
  } else {
    auto* exitTy = llvm::FunctionType::get(builder_.getVoidTy(), false);
    builder_.CreateCall(llvm::InlineAsm::get(exitTy, "exit;", "", true));
    builder_.CreateUnreachable();
  }
  builder_.SetInsertPoint(ok);
}

// debug=True: the first failing site's code goes into `pykc_error` (later ones
// leave it), then the thread ends, as numba's kernels return with the
// exception stored for the host.
void FunctionLowering::reportError(uint32_t stmt) {
  builder_.CreateAtomicCmpXchg(ml_.errorWord(), builder_.getInt32(0),
                               builder_.getInt32(errorCodes_.at(stmt)), llvm::Align(4),
                               llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic, deviceScope());
  builder_.CreateRetVoid();
}

void FunctionLowering::startDeadBlock() {
  auto* dead = llvm::BasicBlock::Create(context_, "dead", function_);
  builder_.SetInsertPoint(dead);
}

// --- values ------------------------------------------------------------------------

llvm::Value* FunctionLowering::constant(const ConstValue& c, TypeId t) {
  const Type& type = types().get(t);
  switch (type.kind) {
    case TypeKind::Bool:
      return builder_.getInt1(truthOf(c));
    case TypeKind::Int: {
      int64_t v = c.kind == ConstValue::Kind::Bool  ? c.boolValue
                  : c.kind == ConstValue::Kind::Int ? c.intValue
                                                    : static_cast<int64_t>(c.floatValue);
      return llvm::ConstantInt::get(llvmType(t), static_cast<uint64_t>(v), type.isSigned);
    }
    case TypeKind::Float: {
      double v = c.kind == ConstValue::Kind::Bool  ? (c.boolValue ? 1.0 : 0.0)
                 : c.kind == ConstValue::Kind::Int ? static_cast<double>(c.intValue)
                                                   : c.floatValue;
      return llvm::ConstantFP::get(llvmType(t), v);
    }
    case TypeKind::Complex: {
      double v = c.kind == ConstValue::Kind::Bool  ? (c.boolValue ? 1.0 : 0.0)
                 : c.kind == ConstValue::Kind::Int ? static_cast<double>(c.intValue)
                                                   : c.floatValue;
      llvm::Type* part = llvmType(types().complexPart(t));
      return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(llvmType(t)),
                                       {llvm::ConstantFP::get(part, v), llvm::ConstantFP::get(part, 0.0)});
    }
    case TypeKind::Tuple: {
      std::vector<llvm::Constant*> elements;
      std::vector<TypeId> ets = type.elements;
      for (size_t i = 0; i < ets.size(); ++i) {
        elements.push_back(llvm::cast<llvm::Constant>(constant(c.elements[i], ets[i])));
      }
      return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(llvmType(t)), elements);
    }
    default:
      return llvm::PoisonValue::get(llvmType(t));
  }
}

llvm::Value* FunctionLowering::convert(llvm::Value* v, TypeId from, TypeId to) {
  if (from == to || !from.valid() || !to.valid()) return v;
  const Type& f = types().get(from);
  const Type& t = types().get(to);
  llvm::Type* target = llvmType(to);
  if (t.kind == TypeKind::Bool) return truth(v, from);
  if (t.kind == TypeKind::Complex) {
    TypeId part = types().complexPart(to);
    llvm::Value* re;
    llvm::Value* im;
    if (f.kind == TypeKind::Complex) {
      TypeId fromPart = types().complexPart(from);
      re = convert(builder_.CreateExtractValue(v, 0), fromPart, part);
      im = convert(builder_.CreateExtractValue(v, 1), fromPart, part);
    } else {
      re = convert(v, from, part);
      im = llvm::ConstantFP::get(llvmType(part), 0.0);
    }
    return makeComplex(re, im, to);
  }
  switch (f.kind) {
    case TypeKind::Bool:
      if (t.kind == TypeKind::Int) return builder_.CreateZExt(v, target);
      if (t.kind == TypeKind::Float) return builder_.CreateUIToFP(v, target);
      break;
    case TypeKind::Int:
      if (t.kind == TypeKind::Int) {
        if (t.bits == f.bits) return v;
        if (t.bits < f.bits) return builder_.CreateTrunc(v, target);
        return f.isSigned ? builder_.CreateSExt(v, target) : builder_.CreateZExt(v, target);
      }
      if (t.kind == TypeKind::Float) {
        return f.isSigned ? builder_.CreateSIToFP(v, target) : builder_.CreateUIToFP(v, target);
      }
      break;
    case TypeKind::Float:
      if (t.kind == TypeKind::Int) {
        return t.isSigned ? builder_.CreateFPToSI(v, target) : builder_.CreateFPToUI(v, target);
      }
      if (t.kind == TypeKind::Float) {
        return t.bits > f.bits ? builder_.CreateFPExt(v, target) : builder_.CreateFPTrunc(v, target);
      }
      break;
    case TypeKind::Array:
      // All layouts share one representation.
      return v;
    case TypeKind::Tuple: {
      if (t.kind != TypeKind::Tuple) break;
      std::vector<TypeId> fe = f.elements;
      std::vector<TypeId> te = t.elements;
      llvm::Value* agg = llvm::PoisonValue::get(target);
      for (unsigned i = 0; i < fe.size(); ++i) {
        llvm::Value* e = builder_.CreateExtractValue(v, i);
        agg = builder_.CreateInsertValue(agg, convert(e, fe[i], te[i]), i);
      }
      return agg;
    }
    default:
      break;
  }
  assert(false && "conversion the checker should have rejected");
  return v;
}

llvm::Value* FunctionLowering::truth(llvm::Value* v, TypeId t) {
  const Type& type = types().get(t);
  switch (type.kind) {
    case TypeKind::Bool:
      return v;
    case TypeKind::Int:
      return builder_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
    case TypeKind::Float:
      // NaN is true in Python.
      return builder_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    case TypeKind::Tuple:
      return builder_.getInt1(!type.elements.empty());
    case TypeKind::Tile:
      llvm_unreachable("tiles are lowered by tile_lower.cpp");
    case TypeKind::Complex: {
      llvm::Value* zero = llvm::ConstantFP::get(llvmType(types().complexPart(t)), 0.0);
      return builder_.CreateOr(builder_.CreateFCmpUNE(builder_.CreateExtractValue(v, 0), zero),
                               builder_.CreateFCmpUNE(builder_.CreateExtractValue(v, 1), zero));
    }
    case TypeKind::None:
      return builder_.getFalse();
    case TypeKind::Pointer:
      return builder_.CreateIsNotNull(v);
    case TypeKind::Array:
    case TypeKind::Record:
      break;
  }
  assert(false && "the checker rejects arrays as conditions");
  return builder_.getTrue();
}

ArrayParts FunctionLowering::arrayParts(llvm::Value* array, TypeId t) {
  const Type& type = types().get(t);
  ArrayParts parts;
  parts.data = builder_.CreateExtractValue(array, 0);
  for (unsigned d = 0; d < type.ndim; ++d) {
    parts.shape.push_back(builder_.CreateExtractValue(array, {1u, d}));
    parts.strides.push_back(builder_.CreateExtractValue(array, {2u, d}));
  }
  return parts;
}

llvm::Value* FunctionLowering::makeArray(const ArrayParts& parts, TypeId t) {
  llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
  agg = builder_.CreateInsertValue(agg, parts.data, 0);
  for (unsigned d = 0; d < parts.shape.size(); ++d) {
    agg = builder_.CreateInsertValue(agg, parts.shape[d], {1u, d});
    agg = builder_.CreateInsertValue(agg, parts.strides[d], {2u, d});
  }
  return agg;
}

// --- statements ----------------------------------------------------------------------

void FunctionLowering::emitBody(std::span<const StmtId> body) {
  for (StmtId id : body) {
    if (terminated()) startDeadBlock();
    emitStmt(id);
  }
}

void FunctionLowering::storeTarget(ExprId target, llvm::Value* value, TypeId type) {
  const Expr& t = ast_.expr(target);
  if (const auto* n = t.dyn<ast::Name>()) {
    std::string name(ast_.str(n->id));
    auto it = vars_.find(name);
    // A name bound to a compile-time object (`g = cuda.cg.this_grid()`).
    if (it == vars_.end()) return;
    builder_.CreateStore(convert(value, type, inst_.variables.at(name)), it->second);
    return;
  }
  if (t.is<ast::Tuple>() || t.is<ast::List>()) {
    auto elts = t.is<ast::Tuple>() ? ast_.list(t.as<ast::Tuple>().elts)
                                   : ast_.list(t.as<ast::List>().elts);
    std::vector<TypeId> elements = types().get(type).elements;
    // Python evaluates the whole value, then assigns left to right.
    for (unsigned i = 0; i < elts.size(); ++i) {
      storeTarget(elts[i], builder_.CreateExtractValue(value, i), elements[i]);
    }
    return;
  }
  TypeId fieldType;
  if (llvm::Value* field = recordFieldTarget(target, fieldType)) {
    storeField(field, convert(value, type, fieldType), fieldType);
    return;
  }
  if (const auto* s = t.dyn<ast::Subscript>()) {
    if (types().isArray(typeOf(target))) {
      storeSlice(emitArrayView(target, *s), typeOf(target), value, type);
      return;
    }
    TypeId elementType;
    llvm::Value* ptr = elementPointer(s->value, s->slice, elementType);
    storeElement(ptr, convert(value, type, elementType), elementType);
    return;
  }
  assert(false && "the checker rejects other targets");
}

void FunctionLowering::emitStmt(StmtId id) {
  const Stmt& s = ast_.stmt(id);
  currentStmt_ = id.index;
  setLocation(s.range);
  switch (s.kind()) {
    case StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      llvm::Value* v = emitExpr(a.value);
      for (ExprId t : ast_.list(a.targets)) {
        setLocation(s.range);
        storeTarget(t, v, typeOf(a.value));
      }
      return;
    }
    case StmtKind::AnnAssign: {
      const auto& a = s.as<ast::AnnAssign>();
      if (!a.value.valid()) return;
      llvm::Value* v = emitExpr(a.value);
      storeTarget(a.target, v, typeOf(a.value));
      return;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<ast::AugAssign>();
      const Expr& target = ast_.expr(a.target);
      TypeId opType = inst_.stmtOpTypes[id.index];
      TypeId resultType = inst_.stmtResultTypes[id.index];
      TypeId exponent = inst_.powExponentTypes[a.value.index];
      if (const auto* n = target.dyn<ast::Name>()) {
        std::string name(ast_.str(n->id));
        TypeId varType = inst_.variables.at(name);
        llvm::AllocaInst* slot = vars_.at(name);
        llvm::Value* current = builder_.CreateLoad(slot->getAllocatedType(), slot);
        llvm::Value* rhs = emitExpr(a.value);
        llvm::Value* l = convert(current, varType, opType);
        llvm::Value* r = convert(rhs, typeOf(a.value), exponent.valid() ? exponent : opType);
        llvm::Value* result = emitArith(a.op, l, r, opType, exponent);
        builder_.CreateStore(convert(result, resultType, varType), slot);
        return;
      }
      TypeId fieldType;
      if (llvm::Value* field = recordFieldTarget(a.target, fieldType)) {
        llvm::Align align = fieldAlign_;
        llvm::Value* rhs = emitExpr(a.value);
        fieldAlign_ = align;
        llvm::Value* l = convert(loadField(field, fieldType), fieldType, opType);
        llvm::Value* r = convert(rhs, typeOf(a.value), exponent.valid() ? exponent : opType);
        llvm::Value* result = emitArith(a.op, l, r, opType, exponent);
        fieldAlign_ = align;
        storeField(field, convert(result, resultType, fieldType), fieldType);
        return;
      }
      const auto& sub = target.as<ast::Subscript>();
      if (types().isArray(typeOf(a.target))) {
        // `a[1:3] += x`: numba's in-place ufunc on the view.
        llvm::Value* view = emitArrayView(a.target, sub);
        llvm::Value* rhs = emitExpr(a.value);
        SliceUpdate update{a.op, opType, resultType, exponent};
        storeSlice(view, typeOf(a.target), rhs, typeOf(a.value), &update);
        return;
      }
      TypeId elementType;
      llvm::Value* ptr = elementPointer(sub.value, sub.slice, elementType);
      llvm::Value* rhs = emitExpr(a.value);
      llvm::Value* current = loadElement(ptr, elementType);
      llvm::Value* l = convert(current, elementType, opType);
      llvm::Value* r = convert(rhs, typeOf(a.value), exponent.valid() ? exponent : opType);
      llvm::Value* result = emitArith(a.op, l, r, opType, exponent);
      storeElement(ptr, convert(result, resultType, elementType), elementType);
      return;
    }
    case StmtKind::For:
      emitFor(id, s.as<ast::For>());
      return;
    case StmtKind::While: {
      const auto& w = s.as<ast::While>();
      auto* header = llvm::BasicBlock::Create(context_, "while.cond", function_);
      auto* body = llvm::BasicBlock::Create(context_, "while.body", function_);
      auto* exit = llvm::BasicBlock::Create(context_, "while.end", function_);
      // `while ... else`: the else body runs when the condition fails, not after `break`.
      auto* otherwise = w.orelse.empty() ? exit : llvm::BasicBlock::Create(context_, "while.else", function_);
      builder_.CreateBr(header);
      builder_.SetInsertPoint(header);
      builder_.CreateCondBr(emitCondition(w.test), body, otherwise);
      builder_.SetInsertPoint(body);
      loops_.push_back(LoopTargets{header, exit});
      emitBody(ast_.list(w.body));
      loops_.pop_back();
      if (!terminated()) builder_.CreateBr(header);
      if (otherwise != exit) {
        builder_.SetInsertPoint(otherwise);
        emitBody(ast_.list(w.orelse));
        if (!terminated()) builder_.CreateBr(exit);
      }
      builder_.SetInsertPoint(exit);
      return;
    }
    case StmtKind::If: {
      const auto& i = s.as<ast::If>();
      auto* then = llvm::BasicBlock::Create(context_, "if.then", function_);
      auto* otherwise = i.orelse.empty() ? nullptr
                                         : llvm::BasicBlock::Create(context_, "if.else", function_);
      auto* merge = llvm::BasicBlock::Create(context_, "if.end", function_);
      builder_.CreateCondBr(emitCondition(i.test), then, otherwise ? otherwise : merge);
      builder_.SetInsertPoint(then);
      emitBody(ast_.list(i.body));
      if (!terminated()) builder_.CreateBr(merge);
      if (otherwise) {
        builder_.SetInsertPoint(otherwise);
        emitBody(ast_.list(i.orelse));
        if (!terminated()) builder_.CreateBr(merge);
      }
      builder_.SetInsertPoint(merge);
      return;
    }
    case StmtKind::Return: {
      const auto& r = s.as<ast::Return>();
      if (function_->getReturnType()->isVoidTy()) {
        if (r.value.valid()) emitExpr(r.value);
        builder_.CreateRetVoid();
        return;
      }
      assert(r.value.valid() && "the checker types value returns");
      builder_.CreateRet(emitExprAs(r.value, inst_.returnType));
      return;
    }
    case StmtKind::Assert: {
      if (!errorCodes_.count(id.index)) return;
      const auto& a = s.as<ast::Assert>();
      auto* fail = llvm::BasicBlock::Create(context_, "assert.fail", function_);
      auto* ok = llvm::BasicBlock::Create(context_, "assert.ok", function_);
      builder_.CreateCondBr(emitCondition(a.test), ok, fail);
      builder_.SetInsertPoint(fail);
      reportError(id.index);
      builder_.SetInsertPoint(ok);
      return;
    }
    case StmtKind::Raise:
      if (errorCodes_.count(id.index)) {
        reportError(id.index);
        return;
      }
      // Without debug=True numba ignores the exception: the thread ends.
      if (function_->getReturnType()->isVoidTy()) {
        builder_.CreateRetVoid();
      } else {
        builder_.CreateRet(llvm::Constant::getNullValue(function_->getReturnType()));
      }
      return;
    case StmtKind::Expr: {
      const auto& e = s.as<ast::ExprStmt>();
      if (ast_.expr(e.value).is<ast::Constant>()) return;
      emitExpr(e.value);
      return;
    }
    case StmtKind::Break:
      builder_.CreateBr(loops_.back().breakBlock);
      return;
    case StmtKind::Continue:
      builder_.CreateBr(loops_.back().continueBlock);
      return;
    case StmtKind::Pass:
      return;
    default:
      assert(false && "the checker rejects this statement");
      return;
  }
}

// range(a[, b[, c]]) inside zip/enumerate: its start, step and length (int64).
void FunctionLowering::rangeParts(const ast::Call& call, TypeId t, llvm::Value*& start,
                                  llvm::Value*& step, llvm::Value*& length) {
  auto args = ast_.list(call.args);
  llvm::Type* i64 = builder_.getInt64Ty();
  auto arg = [&](ExprId e) { return convert(emitExprAs(e, t), t, types().int64()); };
  start = llvm::ConstantInt::get(i64, 0);
  step = llvm::ConstantInt::get(i64, 1);
  llvm::Value* stop;
  if (args.size() == 1) {
    stop = arg(args[0]);
  } else {
    start = arg(args[0]);
    stop = arg(args[1]);
    if (args.size() == 3) step = arg(args[2]);
  }
  llvm::Value* zero = builder_.getInt64(0);
  llvm::Value* one = builder_.getInt64(1);
  llvm::Value* up = builder_.CreateSDiv(
      builder_.CreateSub(builder_.CreateAdd(builder_.CreateSub(stop, start), step), one), step);
  llvm::Value* down = builder_.CreateSDiv(
      builder_.CreateAdd(builder_.CreateSub(builder_.CreateSub(start, stop), step), builder_.CreateNeg(one)),
      builder_.CreateNeg(step));
  llvm::Value* n = builder_.CreateSelect(builder_.CreateICmpSGT(step, zero), up, down);
  length = builder_.CreateSelect(builder_.CreateICmpSGT(n, zero), n, zero);
}

// `for x in array/tuple/enumerate(...)/zip(...)`: a hidden int64 counter up to
// the shortest source's length; each source's item is computed from it.
void FunctionLowering::emitIterFor(StmtId id, const ast::For& f, const ForIteration& plan) {
  llvm::Type* i64 = builder_.getInt64Ty();
  struct Source {
    const IterSource* source;
    llvm::Value* value = nullptr;     // array or tuple
    llvm::Value* tupleSlot = nullptr;  // tuple elements in memory
    llvm::Value* start = nullptr;      // range
    llvm::Value* step = nullptr;
  };
  std::vector<Source> sources;
  llvm::Value* count = nullptr;
  for (const IterSource& src : plan.sources) {
    Source s{&src};
    llvm::Value* length;
    if (src.kind == IterSource::Kind::Range) {
      rangeParts(ast_.expr(src.expr).as<ast::Call>(), src.element, s.start, s.step, length);
    } else if (src.kind == IterSource::Kind::Array) {
      s.value = emitExpr(src.expr);
      length = builder_.CreateExtractValue(s.value, {1u, 0u});
    } else {
      s.value = emitExpr(src.expr);
      unsigned n = static_cast<unsigned>(types().get(typeOf(src.expr)).elements.size());
      llvm::Type* et = llvmType(src.element);
      auto* arrayType = llvm::ArrayType::get(et, n);
      s.tupleSlot = entryAlloca(arrayType);
      for (unsigned i = 0; i < n; ++i) {
        builder_.CreateStore(builder_.CreateExtractValue(s.value, i),
                             builder_.CreateConstGEP2_32(arrayType, s.tupleSlot, 0, i));
      }
      length = builder_.getInt64(n);
    }
    count = count ? builder_.CreateSelect(builder_.CreateICmpSLT(length, count), length, count)
                  : length;
    sources.push_back(s);
  }
  llvm::Value* first = builder_.getInt64(0);
  if (plan.enumerateStart.valid()) first = emitExprAs(plan.enumerateStart, types().int64());
  llvm::AllocaInst* counter = llvm::cast<llvm::AllocaInst>(entryAlloca(i64));
  builder_.CreateStore(builder_.getInt64(0), counter);
  auto* header = llvm::BasicBlock::Create(context_, "iter.cond", function_);
  auto* body = llvm::BasicBlock::Create(context_, "iter.body", function_);
  auto* latch = llvm::BasicBlock::Create(context_, "iter.inc", function_);
  auto* exit = llvm::BasicBlock::Create(context_, "iter.end", function_);
  builder_.CreateBr(header);
  builder_.SetInsertPoint(header);
  llvm::Value* i = builder_.CreateLoad(i64, counter);
  auto* otherwise = f.orelse.empty() ? exit : llvm::BasicBlock::Create(context_, "iter.else", function_);
  builder_.CreateCondBr(builder_.CreateICmpSLT(i, count), body, otherwise);
  builder_.SetInsertPoint(body);
  std::vector<llvm::Value*> items;
  for (Source& s : sources) {
    const IterSource& src = *s.source;
    switch (src.kind) {
      case IterSource::Kind::Range:
        items.push_back(convert(builder_.CreateAdd(s.start, builder_.CreateMul(i, s.step)),
                                types().int64(), src.element));
        break;
      case IterSource::Kind::Tuple:
        items.push_back(builder_.CreateLoad(llvmType(src.element),
                                            builder_.CreateGEP(llvmType(src.element), s.tupleSlot, i)));
        break;
      case IterSource::Kind::Array: {
        TypeId arrayType = typeOf(src.expr);
        if (!types().isArray(src.element)) {
          items.push_back(loadElement(elementPointerOf(s.value, arrayType, i, types().int64()),
                                      src.element));
          break;
        }
        // A row: drop the first dimension.
        ArrayParts parts = arrayParts(s.value, arrayType);
        ArrayParts row;
        row.data = builder_.CreateGEP(memoryType(types().get(arrayType).element), parts.data,
                                      builder_.CreateMul(i, parts.strides[0]));
        row.shape.assign(parts.shape.begin() + 1, parts.shape.end());
        row.strides.assign(parts.strides.begin() + 1, parts.strides.end());
        if (types().get(arrayType).layout == Layout::C) row.strides.back() = builder_.getInt64(1);
        items.push_back(makeArray(row, src.element));
        break;
      }
    }
  }
  llvm::Value* item = items[0];
  if (plan.zip) {
    item = llvm::PoisonValue::get(llvmType(types().tuple([&] {
      std::vector<TypeId> e;
      for (const IterSource& src : plan.sources) e.push_back(src.element);
      return e;
    }())));
    for (unsigned k = 0; k < items.size(); ++k) item = builder_.CreateInsertValue(item, items[k], k);
  }
  if (plan.enumerate) {
    llvm::Value* pair = llvm::PoisonValue::get(llvmType(plan.item));
    pair = builder_.CreateInsertValue(pair, builder_.CreateAdd(first, i), 0);
    item = builder_.CreateInsertValue(pair, item, 1);
  }
  storeTarget(f.target, item, plan.item);
  loops_.push_back(LoopTargets{latch, exit});
  emitBody(ast_.list(f.body));
  loops_.pop_back();
  if (!terminated()) builder_.CreateBr(latch);
  builder_.SetInsertPoint(latch);
  setLocation(ast_.stmt(id).range);
  builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(i64, counter), builder_.getInt64(1), "",
                                          true, true),
                       counter);
  builder_.CreateBr(header);
  emitLoopElse(f, otherwise, exit);
  builder_.SetInsertPoint(exit);
}

void FunctionLowering::emitFor(StmtId id, const ast::For& f) {
  if (auto it = inst_.iterations.find(id.index); it != inst_.iterations.end()) {
    emitIterFor(id, f, it->second);
    return;
  }
  const auto& call = ast_.expr(f.iter).as<ast::Call>();
  auto args = ast_.list(call.args);
  TypeId t = inst_.rangeTypes[id.index];
  llvm::Type* lt = llvmType(t);
  bool isSigned = types().get(t).isSigned;
  llvm::Value* start = llvm::ConstantInt::get(lt, 0);
  llvm::Value* step = llvm::ConstantInt::get(lt, 1);
  llvm::Value* stop;
  bool stepKnown = true;
  int64_t stepValue = 1;
  if (args.size() == 1) {
    stop = emitExprAs(args[0], t);
  } else {
    start = emitExprAs(args[0], t);
    stop = emitExprAs(args[1], t);
    if (args.size() == 3) {
      step = emitExprAs(args[2], t);
      int32_t c = inst_.constIndex[args[2].index];
      stepKnown = c >= 0 && inst_.constants[c].kind == ConstValue::Kind::Int;
      if (stepKnown) stepValue = inst_.constants[c].intValue;
    }
  }
  llvm::AllocaInst* counter = llvm::cast<llvm::AllocaInst>(entryAlloca(lt));
  builder_.CreateStore(start, counter);
  auto* header = llvm::BasicBlock::Create(context_, "for.cond", function_);
  auto* body = llvm::BasicBlock::Create(context_, "for.body", function_);
  auto* latch = llvm::BasicBlock::Create(context_, "for.inc", function_);
  auto* exit = llvm::BasicBlock::Create(context_, "for.end", function_);
  builder_.CreateBr(header);
  builder_.SetInsertPoint(header);
  llvm::Value* current = builder_.CreateLoad(lt, counter);
  llvm::Value* cond;
  auto upward = [&] {
    return isSigned ? builder_.CreateICmpSLT(current, stop) : builder_.CreateICmpULT(current, stop);
  };
  if (!isSigned || (stepKnown && stepValue > 0)) {
    cond = upward();
  } else if (stepKnown && stepValue < 0) {
    cond = builder_.CreateICmpSGT(current, stop);
  } else {
    llvm::Value* positive = builder_.CreateICmpSGT(step, llvm::ConstantInt::get(lt, 0));
    cond = builder_.CreateSelect(positive, upward(), builder_.CreateICmpSGT(current, stop));
  }
  auto* otherwise = f.orelse.empty() ? exit : llvm::BasicBlock::Create(context_, "for.else", function_);
  builder_.CreateCondBr(cond, body, otherwise);
  builder_.SetInsertPoint(body);
  storeTarget(f.target, current, t);
  loops_.push_back(LoopTargets{latch, exit});
  emitBody(ast_.list(f.body));
  loops_.pop_back();
  if (!terminated()) builder_.CreateBr(latch);
  builder_.SetInsertPoint(latch);
  setLocation(ast_.stmt(id).range);
  llvm::Value* again = builder_.CreateLoad(lt, counter);
  // The counter never passes `stop` by more than one step, so with a signed
  // type the increment cannot wrap unless `stop` is within a step of the
  // type's limit (as in numba, which computes the same sum).
  builder_.CreateStore(builder_.CreateAdd(again, step, "", false, isSigned), counter);
  builder_.CreateBr(header);
  emitLoopElse(f, otherwise, exit);
  builder_.SetInsertPoint(exit);
}

// `for ... else`: the else body runs when the iteration ends, not after `break`.
void FunctionLowering::emitLoopElse(const ast::For& f, llvm::BasicBlock* otherwise,
                                    llvm::BasicBlock* exit) {
  if (otherwise == exit) return;
  builder_.SetInsertPoint(otherwise);
  emitBody(ast_.list(f.orelse));
  if (!terminated()) builder_.CreateBr(exit);
}

// --- expressions ---------------------------------------------------------------------

llvm::Value* FunctionLowering::emitCondition(ExprId id) {
  int32_t c = inst_.constIndex[id.index];
  if (c >= 0) return builder_.getInt1(truthOf(inst_.constants[c]));
  llvm::Value* v = emitExpr(id);
  return truth(v, typeOf(id));
}

llvm::Value* FunctionLowering::emitExpr(ExprId id) {
  TypeId t = typeOf(id);
  int32_t c = inst_.constIndex[id.index];
  if (c >= 0 && t.valid() && !types().isArray(t)) {
    return constant(inst_.constants[c], t);
  }
  const Expr& e = ast_.expr(id);
  if (!t.valid()) {
    // A compile-time object (a module, `cuda.cg.this_grid()`): no value.
    if (e.is<ast::Call>()) emitCall(id, e.as<ast::Call>());
    return nullptr;
  }
  switch (e.kind()) {
    case ExprKind::Name: {
      const ExprMeaning& m = inst_.meanings[id.index];
      if (m.kind == Intrinsic::Laneid) {
        return specialRegister(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, 0, 32);
      }
      if (m.kind == Intrinsic::Warpsize) return builder_.getInt32(32);
      if (m.kind == Intrinsic::ConstArray) return constArray(m.payload, t);
      if (m.kind == Intrinsic::MathConst) return complexMathConst(m.payload, t);
      std::string name(ast_.str(e.as<ast::Name>().id));
      llvm::AllocaInst* slot = vars_.at(name);
      return builder_.CreateLoad(slot->getAllocatedType(), slot, name);
    }
    case ExprKind::Constant:
      if (types().isComplex(t)) {
        llvm::Type* part = llvmType(types().complexPart(t));
        return makeComplex(llvm::ConstantFP::get(part, 0.0),
                           llvm::ConstantFP::get(part, ast_.constantOf(id).floatValue), t);
      }
      return constant(ConstValue{}, t);
    case ExprKind::Attribute:
      return emitAttribute(id, e.as<ast::Attribute>());
    case ExprKind::Subscript:
      return emitSubscript(id, e.as<ast::Subscript>());
    case ExprKind::Call:
      return emitCall(id, e.as<ast::Call>());
    case ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      TypeId opType = inst_.opTypes[id.index];
      TypeId exponent = inst_.powExponentTypes[id.index];
      llvm::Value* l = emitExprAs(b.left, opType);
      llvm::Value* r = emitExprAs(b.right, exponent.valid() ? exponent : opType);
      return convert(emitArith(b.op, l, r, opType, exponent), opType, t);
    }
    case ExprKind::UnaryOp:
      return emitUnary(id, e.as<ast::UnaryOp>());
    case ExprKind::Compare:
      return emitCompare(id, e.as<ast::Compare>());
    case ExprKind::BoolOp:
      return emitBoolOp(id, e.as<ast::BoolOp>());
    case ExprKind::IfExp:
      return emitIfExp(id, e.as<ast::IfExp>());
    case ExprKind::Tuple: {
      const auto& tuple = e.as<ast::Tuple>();
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
      unsigned i = 0;
      for (ExprId x : ast_.list(tuple.elts)) {
        agg = builder_.CreateInsertValue(agg, emitExpr(x), i++);
      }
      return agg;
    }
    default:
      assert(false && "the checker rejects this expression");
      return llvm::PoisonValue::get(llvmType(t));
  }
}

llvm::Value* FunctionLowering::emitArith(Operator op, llvm::Value* l, llvm::Value* r,
                                         TypeId opType, TypeId exponentType) {
  const Type& t = types().get(opType);
  if (t.kind == TypeKind::Complex) return complexArith(op, l, r, opType);
  bool isFloat = t.kind == TypeKind::Float;
  bool isSigned = t.kind == TypeKind::Int ? t.isSigned : true;
  // Signed integer +, - and * carry `nsw`, as numba's `_int_arith_flags` emits
  // them: LLVM can then prove indices like `k + tx` non-negative and drop the
  // negative-index wrap-around from loops.
  bool nsw = !isFloat && isSigned;
  switch (op) {
    case Operator::Add:
      return isFloat ? builder_.CreateFAdd(l, r) : builder_.CreateAdd(l, r, "", false, nsw);
    case Operator::Sub:
      return isFloat ? builder_.CreateFSub(l, r) : builder_.CreateSub(l, r, "", false, nsw);
    case Operator::Mult:
      return isFloat ? builder_.CreateFMul(l, r) : builder_.CreateMul(l, r, "", false, nsw);
    case Operator::Div:
      if (inst_.fastmath && t.bits == 32) {
        // numba's fastmath=True compiles with NVVM's -prec-div=0.
        return callLibdevice("fast_fdivide", opType, {l, r});
      }
      return builder_.CreateFDiv(l, r);
    case Operator::FloorDiv:
    case Operator::Mod: {
      bool mod = op == Operator::Mod;
      if (isFloat) return floatDivmod(l, r, opType, mod);
      // numba's error model on the GPU: dividing by zero gives 0.
      llvm::Value* zero = llvm::ConstantInt::get(l->getType(), 0);
      llvm::Value* isZero = builder_.CreateICmpEQ(r, zero);
      llvm::Value* safe = builder_.CreateSelect(isZero, llvm::ConstantInt::get(l->getType(), 1), r);
      llvm::Value* result;
      if (!isSigned) {
        result = mod ? builder_.CreateURem(l, safe) : builder_.CreateUDiv(l, safe);
      } else {
        // Python rounds toward negative infinity; INT_MIN // -1 wraps.
        llvm::Value* minusOne = builder_.CreateICmpEQ(safe, llvm::ConstantInt::get(l->getType(), -1, true));
        llvm::Value* divisor = builder_.CreateSelect(minusOne, llvm::ConstantInt::get(l->getType(), 1), safe);
        llvm::Value* q = builder_.CreateSDiv(l, divisor);
        llvm::Value* rem = builder_.CreateSRem(l, divisor);
        q = builder_.CreateSelect(minusOne, builder_.CreateNeg(l), q);
        rem = builder_.CreateSelect(minusOne, zero, rem);
        llvm::Value* adjust = builder_.CreateAnd(
            builder_.CreateICmpNE(rem, zero),
            builder_.CreateICmpSLT(builder_.CreateXor(rem, safe), zero));
        if (mod) {
          result = builder_.CreateSelect(adjust, builder_.CreateAdd(rem, safe), rem);
        } else {
          result = builder_.CreateSelect(adjust, builder_.CreateSub(q, llvm::ConstantInt::get(l->getType(), 1)), q);
        }
      }
      return builder_.CreateSelect(isZero, zero, result);
    }
    case Operator::Pow:
      if (exponentType.valid()) {
        return builder_.CreateCall(ml_.powHelper(opType, exponentType), {l, r});
      }
      return callLibdevice(inst_.fastmath && t.bits == 32 ? "fast_pow" : "pow", opType, {l, r});
    case Operator::LShift:
      return builder_.CreateShl(l, r);
    case Operator::RShift:
      return isSigned ? builder_.CreateAShr(l, r) : builder_.CreateLShr(l, r);
    case Operator::BitAnd:
      return builder_.CreateAnd(l, r);
    case Operator::BitOr:
      return builder_.CreateOr(l, r);
    case Operator::BitXor:
      return builder_.CreateXor(l, r);
    case Operator::MatMult:
      break;
  }
  assert(false && "the checker rejects @");
  return l;
}

// CPython's float_divmod: the floor quotient or the modulo with the sign of
// the divisor.
llvm::Value* FunctionLowering::floatDivmod(llvm::Value* a, llvm::Value* b, TypeId t, bool wantMod) {
  llvm::Type* ft = a->getType();
  llvm::Value* zero = llvm::ConstantFP::get(ft, 0.0);
  llvm::Value* mod = callLibdevice("fmod", t, {a, b});
  if (wantMod) {
    llvm::Value* nonzero = builder_.CreateFCmpUNE(mod, zero);
    llvm::Value* signsDiffer = builder_.CreateXor(builder_.CreateFCmpOLT(b, zero),
                                                  builder_.CreateFCmpOLT(mod, zero));
    llvm::Value* adjusted = builder_.CreateSelect(builder_.CreateAnd(nonzero, signsDiffer),
                                                  builder_.CreateFAdd(mod, b), mod);
    llvm::Value* signedZero = callLibdevice("copysign", t, {zero, b});
    return builder_.CreateSelect(nonzero, adjusted, signedZero);
  }
  llvm::Value* div = builder_.CreateFDiv(builder_.CreateFSub(a, mod), b);
  llvm::Value* nonzero = builder_.CreateFCmpUNE(mod, zero);
  llvm::Value* signsDiffer = builder_.CreateXor(builder_.CreateFCmpOLT(b, zero),
                                                builder_.CreateFCmpOLT(mod, zero));
  div = builder_.CreateSelect(builder_.CreateAnd(nonzero, signsDiffer),
                              builder_.CreateFSub(div, llvm::ConstantFP::get(ft, 1.0)), div);
  llvm::Value* floorDiv = callLibdevice("floor", t, {div});
  llvm::Value* bump = builder_.CreateFCmpOGT(builder_.CreateFSub(div, floorDiv),
                                             llvm::ConstantFP::get(ft, 0.5));
  floorDiv = builder_.CreateSelect(bump, builder_.CreateFAdd(floorDiv, llvm::ConstantFP::get(ft, 1.0)),
                                   floorDiv);
  llvm::Value* divZero = builder_.CreateFCmpOEQ(div, zero);
  llvm::Value* signedZero = callLibdevice("copysign", t, {zero, builder_.CreateFDiv(a, b)});
  return builder_.CreateSelect(divZero, signedZero, floorDiv);
}

llvm::Value* FunctionLowering::emitCmp(CmpOp op, llvm::Value* l, llvm::Value* r, TypeId opType) {
  const Type& t = types().get(opType);
  if (t.kind == TypeKind::Complex) {
    llvm::Value* re = builder_.CreateExtractValue(l, 0);
    llvm::Value* im = builder_.CreateExtractValue(l, 1);
    llvm::Value* re2 = builder_.CreateExtractValue(r, 0);
    llvm::Value* im2 = builder_.CreateExtractValue(r, 1);
    if (op == CmpOp::Eq) {
      return builder_.CreateAnd(builder_.CreateFCmpOEQ(re, re2), builder_.CreateFCmpOEQ(im, im2));
    }
    return builder_.CreateOr(builder_.CreateFCmpUNE(re, re2), builder_.CreateFCmpUNE(im, im2));
  }
  if (t.kind == TypeKind::Float) {
    switch (op) {
      case CmpOp::Eq: return builder_.CreateFCmpOEQ(l, r);
      case CmpOp::NotEq: return builder_.CreateFCmpUNE(l, r);
      case CmpOp::Lt: return builder_.CreateFCmpOLT(l, r);
      case CmpOp::LtE: return builder_.CreateFCmpOLE(l, r);
      case CmpOp::Gt: return builder_.CreateFCmpOGT(l, r);
      case CmpOp::GtE: return builder_.CreateFCmpOGE(l, r);
      default: break;
    }
  } else {
    bool isSigned = t.kind == TypeKind::Int && t.isSigned;
    switch (op) {
      case CmpOp::Eq: return builder_.CreateICmpEQ(l, r);
      case CmpOp::NotEq: return builder_.CreateICmpNE(l, r);
      case CmpOp::Lt: return isSigned ? builder_.CreateICmpSLT(l, r) : builder_.CreateICmpULT(l, r);
      case CmpOp::LtE: return isSigned ? builder_.CreateICmpSLE(l, r) : builder_.CreateICmpULE(l, r);
      case CmpOp::Gt: return isSigned ? builder_.CreateICmpSGT(l, r) : builder_.CreateICmpUGT(l, r);
      case CmpOp::GtE: return isSigned ? builder_.CreateICmpSGE(l, r) : builder_.CreateICmpUGE(l, r);
      default: break;
    }
  }
  assert(false && "the checker rejects this comparison");
  return builder_.getFalse();
}

llvm::Value* FunctionLowering::emitCompare(ExprId id, const ast::Compare& c) {
  auto ops = ast_.list(c.ops);
  auto comparators = ast_.list(c.comparators);
  TypeId leftType = typeOf(c.left);
  llvm::Value* left = emitExpr(c.left);
  if (ops.size() == 1) {
    if (ops[0] == CmpOp::Is || ops[0] == CmpOp::IsNot) {
      emitExpr(comparators[0]);
      return builder_.getInt1(ops[0] == CmpOp::IsNot);
    }
    TypeId opType = inst_.opTypes[comparators[0].index];
    llvm::Value* right = emitExpr(comparators[0]);
    return emitCmp(ops[0], convert(left, leftType, opType),
                   convert(right, typeOf(comparators[0]), opType), opType);
  }
  // Chained: short-circuits like `a < b and b < c`, evaluating b once.
  auto* done = llvm::BasicBlock::Create(context_, "cmp.end", function_);
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  for (size_t k = 0; k < ops.size(); ++k) {
    TypeId opType = inst_.opTypes[comparators[k].index];
    llvm::Value* right = emitExpr(comparators[k]);
    TypeId rightType = typeOf(comparators[k]);
    llvm::Value* result;
    if (ops[k] == CmpOp::Is || ops[k] == CmpOp::IsNot) {
      result = builder_.getInt1(ops[k] == CmpOp::IsNot);
    } else {
      result = emitCmp(ops[k], convert(left, leftType, opType), convert(right, rightType, opType),
                       opType);
    }
    if (k + 1 == ops.size()) {
      incoming.push_back({result, builder_.GetInsertBlock()});
      builder_.CreateBr(done);
      break;
    }
    auto* next = llvm::BasicBlock::Create(context_, "cmp.next", function_);
    incoming.push_back({builder_.getFalse(), builder_.GetInsertBlock()});
    builder_.CreateCondBr(result, next, done);
    builder_.SetInsertPoint(next);
    left = right;
    leftType = rightType;
  }
  builder_.SetInsertPoint(done);
  llvm::PHINode* phi = builder_.CreatePHI(builder_.getInt1Ty(), static_cast<unsigned>(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  (void)id;
  return phi;
}

llvm::Value* FunctionLowering::emitBoolOp(ExprId id, const ast::BoolOp& b) {
  TypeId result = inst_.opTypes[id.index];
  auto values = ast_.list(b.values);
  auto* done = llvm::BasicBlock::Create(context_, b.op == BoolOpKind::And ? "and.end" : "or.end",
                                        function_);
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  for (size_t k = 0; k < values.size(); ++k) {
    llvm::Value* v = emitExpr(values[k]);
    llvm::Value* converted = convert(v, typeOf(values[k]), result);
    if (k + 1 == values.size()) {
      incoming.push_back({converted, builder_.GetInsertBlock()});
      builder_.CreateBr(done);
      break;
    }
    llvm::Value* t = truth(v, typeOf(values[k]));
    auto* next = llvm::BasicBlock::Create(context_, "bool.next", function_);
    incoming.push_back({converted, builder_.GetInsertBlock()});
    if (b.op == BoolOpKind::And) {
      builder_.CreateCondBr(t, next, done);
    } else {
      builder_.CreateCondBr(t, done, next);
    }
    builder_.SetInsertPoint(next);
  }
  builder_.SetInsertPoint(done);
  llvm::PHINode* phi = builder_.CreatePHI(llvmType(result), static_cast<unsigned>(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  return phi;
}

llvm::Value* FunctionLowering::emitIfExp(ExprId id, const ast::IfExp& i) {
  TypeId result = inst_.opTypes[id.index];
  llvm::Value* cond = emitCondition(i.test);
  auto* then = llvm::BasicBlock::Create(context_, "cond.true", function_);
  auto* otherwise = llvm::BasicBlock::Create(context_, "cond.false", function_);
  auto* done = llvm::BasicBlock::Create(context_, "cond.end", function_);
  builder_.CreateCondBr(cond, then, otherwise);
  builder_.SetInsertPoint(then);
  llvm::Value* a = emitExprAs(i.body, result);
  llvm::BasicBlock* thenEnd = builder_.GetInsertBlock();
  builder_.CreateBr(done);
  builder_.SetInsertPoint(otherwise);
  llvm::Value* b = emitExprAs(i.orelse, result);
  llvm::BasicBlock* elseEnd = builder_.GetInsertBlock();
  builder_.CreateBr(done);
  builder_.SetInsertPoint(done);
  llvm::PHINode* phi = builder_.CreatePHI(llvmType(result), 2);
  phi->addIncoming(a, thenEnd);
  phi->addIncoming(b, elseEnd);
  return phi;
}

llvm::Value* FunctionLowering::emitUnary(ExprId id, const ast::UnaryOp& u) {
  TypeId operandType = typeOf(u.operand);
  TypeId opType = inst_.opTypes[id.index];
  if (u.op == UnaryOpKind::Not) {
    return builder_.CreateNot(truth(emitExpr(u.operand), operandType));
  }
  llvm::Value* v = emitExprAs(u.operand, opType);
  const Type& t = types().get(opType);
  switch (u.op) {
    case UnaryOpKind::UAdd:
      return v;
    case UnaryOpKind::USub:
      if (t.kind == TypeKind::Complex) {
        return makeComplex(builder_.CreateFNeg(builder_.CreateExtractValue(v, 0)),
                           builder_.CreateFNeg(builder_.CreateExtractValue(v, 1)), opType);
      }
      return t.kind == TypeKind::Float ? builder_.CreateFNeg(v) : builder_.CreateNeg(v);
    case UnaryOpKind::Invert:
      return builder_.CreateNot(v);
    default:
      return v;
  }
}

llvm::Value* FunctionLowering::specialRegister(llvm::Intrinsic::ID id, uint64_t lo, uint64_t hi) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(&ml_.module(), id);
  llvm::CallInst* call = builder_.CreateCall(f);
  llvm::MDBuilder md(context_);
  call->setMetadata(llvm::LLVMContext::MD_range,
                    md.createRange(llvm::APInt(32, lo), llvm::APInt(32, hi)));
  return call;
}

llvm::Value* FunctionLowering::threadIndexPart(Intrinsic kind, unsigned dim) {
  using namespace llvm::Intrinsic;
  switch (kind) {
    case Intrinsic::ThreadIdx: {
      ID ids[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y, nvvm_read_ptx_sreg_tid_z};
      return specialRegister(ids[dim], 0, dim == 2 ? 64 : 1024);
    }
    case Intrinsic::BlockDim: {
      ID ids[] = {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y, nvvm_read_ptx_sreg_ntid_z};
      return specialRegister(ids[dim], 1, dim == 2 ? 65 : 1025);
    }
    case Intrinsic::BlockIdx: {
      ID ids[] = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                  nvvm_read_ptx_sreg_ctaid_z};
      return specialRegister(ids[dim], 0, dim == 0 ? 0x7fffffffu : 65535);
    }
    default: {
      ID ids[] = {nvvm_read_ptx_sreg_nctaid_x, nvvm_read_ptx_sreg_nctaid_y,
                  nvvm_read_ptx_sreg_nctaid_z};
      return specialRegister(ids[dim], 1, dim == 0 ? 0x80000000u : 65536);
    }
  }
}

// cuda.grid / cuda.gridsize for one dimension, in int64 (numba#9229).
llvm::Value* FunctionLowering::gridPart(bool size, unsigned dim) {
  llvm::Type* i64 = builder_.getInt64Ty();
  if (size) {
    llvm::Value* ntid = builder_.CreateZExt(threadIndexPart(Intrinsic::BlockDim, dim), i64);
    llvm::Value* nctaid = builder_.CreateZExt(threadIndexPart(Intrinsic::GridDim, dim), i64);
    return builder_.CreateMul(ntid, nctaid, "", true, true);
  }
  llvm::Value* tid = builder_.CreateZExt(threadIndexPart(Intrinsic::ThreadIdx, dim), i64);
  llvm::Value* ctaid = builder_.CreateZExt(threadIndexPart(Intrinsic::BlockIdx, dim), i64);
  llvm::Value* ntid = builder_.CreateZExt(threadIndexPart(Intrinsic::BlockDim, dim), i64);
  return builder_.CreateAdd(builder_.CreateMul(ctaid, ntid, "", true, true), tid, "", true, true);
}

llvm::Value* FunctionLowering::emitAttribute(ExprId id, const ast::Attribute& a) {
  const ExprMeaning& m = inst_.meanings[id.index];
  TypeId fieldType;
  if (llvm::Value* field = recordFieldTarget(id, fieldType)) return loadField(field, fieldType);
  if (TypeId base = typeOf(a.value); base.valid() && types().isVector(base)) {
    std::string_view attr = ast_.str(a.attr);
    return builder_.CreateExtractValue(emitExpr(a.value),
                                       static_cast<unsigned>(std::string_view("xyzw").find(attr)));
  }
  switch (m.kind) {
    case Intrinsic::ThreadIdx:
    case Intrinsic::BlockIdx:
    case Intrinsic::BlockDim:
    case Intrinsic::GridDim:
      return threadIndexPart(m.kind, m.payload);
    case Intrinsic::Laneid:
      return specialRegister(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, 0, 32);
    case Intrinsic::Warpsize:
      return builder_.getInt32(32);
    case Intrinsic::MathConst:
      return complexMathConst(m.payload, typeOf(id));
    case Intrinsic::ComplexReal:
    case Intrinsic::ComplexImag: {
      TypeId baseType = typeOf(a.value);
      llvm::Value* v = emitExpr(a.value);
      if (types().isComplex(baseType)) return builder_.CreateExtractValue(v, m.kind == Intrinsic::ComplexReal ? 0 : 1);
      if (m.kind == Intrinsic::ComplexReal) return v;
      return llvm::Constant::getNullValue(llvmType(baseType));
    }
    default:
      break;
  }
  ArrayAttr attr = inst_.arrayAttrs[id.index];
  TypeId arrayType = typeOf(a.value);
  llvm::Value* array = emitExpr(a.value);
  ArrayParts parts = arrayParts(array, arrayType);
  const Type& at = types().get(arrayType);
  switch (attr) {
    case ArrayAttr::Shape:
    case ArrayAttr::Strides: {
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(typeOf(id)));
      for (unsigned d = 0; d < at.ndim; ++d) {
        llvm::Value* v = parts.shape[d];
        if (attr == ArrayAttr::Strides) {
          // numba reports strides in bytes.
          v = builder_.CreateMul(parts.strides[d],
                                 builder_.getInt64(types().byteSize(at.element)));
        }
        agg = builder_.CreateInsertValue(agg, v, d);
      }
      return agg;
    }
    case ArrayAttr::Transpose: {
      // The unit stride the layout promises.
      if (at.layout == Layout::C) parts.strides[at.ndim - 1] = builder_.getInt64(1);
      if (at.layout == Layout::F) parts.strides[0] = builder_.getInt64(1);
      ArrayParts t;
      t.data = parts.data;
      t.shape.assign(parts.shape.rbegin(), parts.shape.rend());
      t.strides.assign(parts.strides.rbegin(), parts.strides.rend());
      return makeArray(t, typeOf(id));
    }
    case ArrayAttr::Size: {
      llvm::Value* size = builder_.getInt64(1);
      for (llvm::Value* s : parts.shape) size = builder_.CreateMul(size, s);
      return size;
    }
    default:
      return builder_.getInt64(at.ndim);
  }
}

llvm::Value* FunctionLowering::wrapIndex(llvm::Value* index, TypeId indexType, llvm::Value* extent) {
  const Type& t = types().get(indexType);
  llvm::Type* i64 = builder_.getInt64Ty();
  if (!t.isSigned) return builder_.CreateZExt(index, i64);
  llvm::Value* wide = builder_.CreateSExt(index, i64);
  // numba: a negative index counts from the end. When LLVM can prove the
  // index non-negative (cuda.grid, range loops) the select folds away.
  llvm::Value* negative = builder_.CreateICmpSLT(wide, builder_.getInt64(0));
  return builder_.CreateSelect(negative, builder_.CreateAdd(wide, extent), wide);
}

llvm::Value* FunctionLowering::elementPointerOf(llvm::Value* array, TypeId arrayType,
                                                llvm::Value* index, TypeId indexType) {
  const Type& at = types().get(arrayType);
  ArrayParts parts = arrayParts(array, arrayType);
  std::vector<std::pair<llvm::Value*, TypeId>> indices;
  if (types().isTuple(indexType)) {
    std::vector<TypeId> elements = types().get(indexType).elements;
    for (unsigned i = 0; i < elements.size(); ++i) {
      indices.push_back({builder_.CreateExtractValue(index, i), elements[i]});
    }
  } else {
    indices.push_back({index, indexType});
  }
  llvm::Value* offset = nullptr;
  for (unsigned d = 0; d < at.ndim; ++d) {
    llvm::Value* i = wrapIndex(indices[d].first, indices[d].second, parts.shape[d]);
    bool unit = (at.layout == Layout::C && d + 1 == at.ndim) || (at.layout == Layout::F && d == 0);
    llvm::Value* term = unit ? i : builder_.CreateMul(i, parts.strides[d]);
    offset = offset ? builder_.CreateAdd(offset, term) : term;
  }
  return builder_.CreateGEP(memoryType(at.element), parts.data, offset);
}

llvm::Value* FunctionLowering::elementPointer(ExprId arrayExpr, ExprId indexExpr,
                                              TypeId& elementType) {
  TypeId arrayType = typeOf(arrayExpr);
  llvm::Value* array = emitExpr(arrayExpr);
  llvm::Value* index = emitExpr(indexExpr);
  elementType = types().get(arrayType).element;
  return elementPointerOf(array, arrayType, index, typeOf(indexExpr));
}

llvm::Value* FunctionLowering::fieldPointer(ExprId recordExpr, std::string_view name,
                                            TypeId& fieldType) {
  TypeId recordType = typeOf(recordExpr);
  llvm::Value* base = emitExpr(recordExpr);
  const Type& rt = types().get(recordType);
  size_t index = *types().fieldIndex(recordType, name);
  fieldType = rt.elements[index];
  unsigned size = types().byteSize(fieldType);
  unsigned natural = types().isComplex(fieldType) ? size / 2 : size;
  bool keeps = rt.fieldOffsets[index] % natural == 0 && rt.size % natural == 0;
  fieldAlign_ = llvm::Align(rt.aligned || keeps ? natural : 1);
  return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), base, rt.fieldOffsets[index]);
}

llvm::Value* FunctionLowering::loadField(llvm::Value* ptr, TypeId fieldType) {
  llvm::LoadInst* load = builder_.CreateLoad(memoryType(fieldType), ptr);
  load->setAlignment(fieldAlign_);
  if (types().isBool(fieldType)) return builder_.CreateICmpNE(load, builder_.getInt8(0));
  return load;
}

void FunctionLowering::storeField(llvm::Value* ptr, llvm::Value* value, TypeId fieldType) {
  if (types().isBool(fieldType)) value = builder_.CreateZExt(value, builder_.getInt8Ty());
  builder_.CreateStore(value, ptr)->setAlignment(fieldAlign_);
}

llvm::Value* FunctionLowering::recordFieldTarget(ExprId target, TypeId& fieldType) {
  const Expr& t = ast_.expr(target);
  auto isRecord = [&](ExprId e) {
    TypeId type = typeOf(e);
    return type.valid() && types().isRecord(type);
  };
  if (const auto* a = t.dyn<ast::Attribute>()) {
    if (!isRecord(a->value)) return nullptr;
    return fieldPointer(a->value, ast_.str(a->attr), fieldType);
  }
  if (const auto* s = t.dyn<ast::Subscript>()) {
    if (!isRecord(s->value)) return nullptr;
    return fieldPointer(s->value, ast_.constantOf(s->slice).text, fieldType);
  }
  return nullptr;
}

llvm::Value* FunctionLowering::loadElement(llvm::Value* ptr, TypeId elementType) {
  // A record element's value is its address.
  if (types().isRecord(elementType)) return ptr;
  llvm::Type* mt = memoryType(elementType);
  llvm::LoadInst* load = builder_.CreateLoad(mt, ptr);
  load->setAlignment(elementAlign(elementType));
  if (types().isBool(elementType)) return builder_.CreateICmpNE(load, builder_.getInt8(0));
  return load;
}

void FunctionLowering::storeElement(llvm::Value* ptr, llvm::Value* value, TypeId elementType) {
  if (types().isBool(elementType)) value = builder_.CreateZExt(value, builder_.getInt8Ty());
  llvm::StoreInst* store = builder_.CreateStore(value, ptr);
  store->setAlignment(elementAlign(elementType));
}

// Python's slice.indices(n) and the resulting length, in int64.
static void sliceBounds(llvm::IRBuilder<>& b, llvm::Value* n, llvm::Value* lower, llvm::Value* upper,
                        llvm::Value* step, llvm::Value*& start, llvm::Value*& length) {
  llvm::Value* zero = b.getInt64(0);
  llvm::Value* minusOne = b.getInt64(-1);
  llvm::Value* negative = b.CreateICmpSLT(step, zero);
  auto clamp = [&](llvm::Value* v) {
    llvm::Value* wrapped = b.CreateSelect(b.CreateICmpSLT(v, zero), b.CreateAdd(v, n), v);
    llvm::Value* low = b.CreateSelect(negative, minusOne, zero);
    llvm::Value* high = b.CreateSelect(negative, b.CreateSub(n, b.getInt64(1)), n);
    wrapped = b.CreateSelect(b.CreateICmpSLT(wrapped, zero), low, wrapped);
    return b.CreateSelect(b.CreateICmpSGE(wrapped, n), high, wrapped);
  };
  start = lower ? clamp(lower) : b.CreateSelect(negative, b.CreateSub(n, b.getInt64(1)), zero);
  llvm::Value* stop = upper ? clamp(upper) : b.CreateSelect(negative, minusOne, n);
  llvm::Value* one = b.getInt64(1);
  llvm::Value* up = b.CreateSelect(
      b.CreateICmpSGT(stop, start),
      b.CreateAdd(b.CreateSDiv(b.CreateSub(b.CreateSub(stop, start), one), step), one), zero);
  llvm::Value* down = b.CreateSelect(
      b.CreateICmpSGT(start, stop),
      b.CreateAdd(b.CreateSDiv(b.CreateSub(b.CreateSub(start, stop), one), b.CreateNeg(step)), one),
      zero);
  length = b.CreateSelect(negative, down, up);
}

llvm::Value* FunctionLowering::emitArrayView(ExprId id, const ast::Subscript& s) {
  TypeId baseType = typeOf(s.value);
  const Type& bt = types().get(baseType);
  ArrayParts base = arrayParts(emitExpr(s.value), baseType);
  // The unit stride a layout promises.
  if (bt.layout == Layout::C) base.strides[bt.ndim - 1] = builder_.getInt64(1);
  if (bt.layout == Layout::F) base.strides[0] = builder_.getInt64(1);
  std::vector<ExprId> items;
  const Expr& slice = ast_.expr(s.slice);
  if (const auto* t = slice.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) items.push_back(x);
  } else {
    items.push_back(s.slice);
  }
  ArrayParts view;
  llvm::Value* offset = builder_.getInt64(0);
  for (unsigned d = 0; d < bt.ndim; ++d) {
    if (d >= items.size()) {
      view.shape.push_back(base.shape[d]);
      view.strides.push_back(base.strides[d]);
      continue;
    }
    const Expr& item = ast_.expr(items[d]);
    if (const auto* sl = item.dyn<ast::Slice>()) {
      auto part = [&](ExprId e) -> llvm::Value* {
        return e.valid() ? emitExprAs(e, types().int64()) : nullptr;
      };
      llvm::Value* lower = part(sl->lower);
      llvm::Value* upper = part(sl->upper);
      llvm::Value* step = sl->step.valid() ? part(sl->step) : builder_.getInt64(1);
      llvm::Value* start;
      llvm::Value* length;
      sliceBounds(builder_, base.shape[d], lower, upper, step, start, length);
      offset = builder_.CreateAdd(offset, builder_.CreateMul(start, base.strides[d]));
      view.shape.push_back(length);
      view.strides.push_back(builder_.CreateMul(base.strides[d], step));
      continue;
    }
    llvm::Value* index = wrapIndex(emitExpr(items[d]), typeOf(items[d]), base.shape[d]);
    offset = builder_.CreateAdd(offset, builder_.CreateMul(index, base.strides[d]));
  }
  view.data = builder_.CreateGEP(memoryType(bt.element), base.data, offset);
  return makeArray(view, typeOf(id));
}

llvm::Value* FunctionLowering::emitSubscript(ExprId id, const ast::Subscript& s) {
  TypeId baseType = typeOf(s.value);
  TypeId fieldType;
  if (llvm::Value* field = recordFieldTarget(id, fieldType)) return loadField(field, fieldType);
  if (types().isArray(baseType) && types().isArray(typeOf(id))) return emitArrayView(id, s);
  if (types().isArray(baseType)) {
    TypeId elementType;
    llvm::Value* ptr = elementPointer(s.value, s.slice, elementType);
    return loadElement(ptr, elementType);
  }
  // A tuple.
  llvm::Value* tuple = emitExpr(s.value);
  const Type& tt = types().get(baseType);
  int32_t c = inst_.constIndex[s.slice.index];
  if (c >= 0 && inst_.constants[c].kind == ConstValue::Kind::Int) {
    int64_t n = static_cast<int64_t>(tt.elements.size());
    int64_t k = inst_.constants[c].intValue;
    if (k < 0) k += n;
    return builder_.CreateExtractValue(tuple, static_cast<unsigned>(k));
  }
  // A dynamic index into a tuple of one type: through memory.
  llvm::Type* elementType = llvmType(tt.elements[0]);
  unsigned n = static_cast<unsigned>(tt.elements.size());
  llvm::Value* slot = entryAlloca(llvm::ArrayType::get(elementType, n));
  for (unsigned i = 0; i < n; ++i) {
    builder_.CreateStore(builder_.CreateExtractValue(tuple, i),
                         builder_.CreateConstGEP2_32(llvm::ArrayType::get(elementType, n), slot, 0, i));
  }
  llvm::Value* index = wrapIndex(emitExpr(s.slice), typeOf(s.slice), builder_.getInt64(n));
  llvm::Value* ptr = builder_.CreateGEP(elementType, slot, index);
  (void)id;
  return builder_.CreateLoad(elementType, ptr);
}

llvm::Value* FunctionLowering::callLibdevice(std::string_view base, TypeId t,
                                             std::vector<llvm::Value*> args) {
  bool single = types().get(t).bits == 32;
  std::string name = "__nv_" + std::string(base) + (single ? "f" : "");
  llvm::Type* ft = llvmType(t);
  std::vector<llvm::Type*> params;
  for (llvm::Value* a : args) params.push_back(a->getType());
  auto callee = ml_.module().getOrInsertFunction(name, llvm::FunctionType::get(ft, params, false));
  return builder_.CreateCall(callee, args);
}

llvm::Value* FunctionLowering::emitMath(ExprId id, MathFn fn, const ast::Call& c) {
  TypeId operand = inst_.opTypes[id.index];
  auto argList = ast_.list(c.args);
  std::vector<llvm::Value*> args;
  std::vector<TypeId> argTypes;
  for (ExprId a : argList) {
    args.push_back(emitExpr(a));
    argTypes.push_back(typeOf(a));
  }
  llvm::Type* ft = llvmType(operand);
  switch (fn) {
    case MathFn::Isnan:
    case MathFn::Isinf:
    case MathFn::Isfinite: {
      if (!types().isFloat(argTypes[0])) return builder_.getInt1(fn == MathFn::Isfinite);
      llvm::Value* x = args[0];
      if (fn == MathFn::Isnan) return builder_.CreateFCmpUNO(x, x);
      llvm::Value* ax = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
      llvm::Value* inf = llvm::ConstantFP::getInfinity(x->getType());
      return fn == MathFn::Isinf ? builder_.CreateFCmpOEQ(ax, inf) : builder_.CreateFCmpOLT(ax, inf);
    }
    case MathFn::Degrees:
      return builder_.CreateFMul(convert(args[0], argTypes[0], operand),
                                 llvm::ConstantFP::get(ft, 180.0 / M_PI));
    case MathFn::Radians:
      return builder_.CreateFMul(convert(args[0], argTypes[0], operand),
                                 llvm::ConstantFP::get(ft, M_PI / 180.0));
    case MathFn::Ldexp: {
      llvm::Value* e = convert(args[1], argTypes[1], types().int32());
      return callLibdevice("ldexp", operand, {convert(args[0], argTypes[0], operand), e});
    }
    case MathFn::Frexp:
    case MathFn::Modf: {
      llvm::Value* x = convert(args[0], argTypes[0], operand);
      bool frexp = fn == MathFn::Frexp;
      llvm::Type* outType = frexp ? builder_.getInt32Ty() : ft;
      llvm::Value* out = entryAlloca(outType);
      llvm::Value* first = callLibdevice(frexp ? "frexp" : "modf", operand, {x, out});
      llvm::Value* second = builder_.CreateLoad(outType, out);
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(typeOf(id)));
      agg = builder_.CreateInsertValue(agg, first, 0);
      return builder_.CreateInsertValue(agg, second, 1);
    }
    case MathFn::Log:
      if (args.size() == 2) {
        llvm::Value* x = callLibdevice("log", operand, {convert(args[0], argTypes[0], operand)});
        llvm::Value* b = callLibdevice("log", operand, {convert(args[1], argTypes[1], operand)});
        return builder_.CreateFDiv(x, b);
      }
      break;
    case MathFn::Fabs:
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs,
                                           convert(args[0], argTypes[0], operand));
    default:
      break;
  }
  for (size_t k = 0; k < args.size(); ++k) args[k] = convert(args[k], argTypes[k], operand);
  std::string base(kMathInfo[static_cast<unsigned>(fn)].libdevice);
  if (inst_.fastmath && types().get(operand).bits == 32) {
    // numba's fastmath=True: libdevice's fast single-precision variants and
    // an approximate square root (NVVM's -prec-sqrt=0).
    switch (fn) {
      case MathFn::Sin: case MathFn::Cos: case MathFn::Tan: case MathFn::Exp:
      case MathFn::Log: case MathFn::Log2: case MathFn::Log10: case MathFn::Pow:
      case MathFn::Tanh:
        base = "fast_" + base;
        break;
      case MathFn::Sqrt:
        return builder_.CreateCall(
            llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_sqrt_approx_f),
            {args[0]});
      default:
        break;
    }
  }
  return callLibdevice(base, operand, args);
}

// numba's float atomic max/min (cudadrv/nvvm.py, ir_numba_atomic_minmax): a
// CAS loop. max/min leave the element alone when it or the value is NaN;
// nanmax/nanmin ignore a NaN value and replace a NaN element. Returns the
// value first loaded, as numba does.
llvm::Value* FunctionLowering::emitFloatMinMax(llvm::Value* ptr, llvm::Value* value, bool isMax,
                                               bool nan) {
  llvm::Type* ft = value->getType();
  llvm::Type* it = builder_.getIntNTy(ft->getPrimitiveSizeInBits());
  llvm::Align align(ft->getPrimitiveSizeInBits() / 8);
  llvm::LoadInst* initial = builder_.CreateLoad(ft, ptr);
  initial->setVolatile(true);
  initial->setAlignment(align);
  llvm::Value* early = builder_.CreateFCmpUNO(value, nan ? value : initial);
  llvm::BasicBlock* start = builder_.GetInsertBlock();
  auto* check = llvm::BasicBlock::Create(context_, "atomic.check", function_);
  auto* attempt = llvm::BasicBlock::Create(context_, "atomic.attempt", function_);
  auto* done = llvm::BasicBlock::Create(context_, "atomic.done", function_);
  builder_.CreateCondBr(early, done, check);
  builder_.SetInsertPoint(check);
  llvm::PHINode* current = builder_.CreatePHI(ft, 2);
  current->addIncoming(initial, start);
  llvm::Value* again;
  if (nan) {
    again = isMax ? builder_.CreateFCmpULT(current, value) : builder_.CreateFCmpUGT(current, value);
  } else {
    again = isMax ? builder_.CreateFCmpOLT(current, value) : builder_.CreateFCmpOGT(current, value);
  }
  builder_.CreateCondBr(again, attempt, done);
  builder_.SetInsertPoint(attempt);
  auto* cas = builder_.CreateAtomicCmpXchg(ptr, builder_.CreateBitCast(current, it),
                                           builder_.CreateBitCast(value, it), align,
                                           llvm::AtomicOrdering::Monotonic,
                                           llvm::AtomicOrdering::Monotonic, deviceScope());
  current->addIncoming(builder_.CreateBitCast(builder_.CreateExtractValue(cas, 0), ft), attempt);
  builder_.CreateBr(check);
  builder_.SetInsertPoint(done);
  return initial;
}

llvm::Value* FunctionLowering::emitAtomic(ExprId id, Intrinsic kind, const ast::Call& c) {
  auto argList = ast_.list(c.args);
  TypeId element;
  llvm::Value* ptr;
  size_t valueArg = 2;
  if (kind == Intrinsic::AtomicCompareAndSwap) {
    // compare_and_swap(array, old, value): element 0.
    TypeId arrayType = typeOf(argList[0]);
    element = types().get(arrayType).element;
    ptr = arrayParts(emitExpr(argList[0]), arrayType).data;
    valueArg = 1;
  } else {
    ptr = elementPointer(argList[0], argList[1], element);
  }
  const Type& et = types().get(element);
  bool isFloat = et.kind == TypeKind::Float;
  llvm::Value* value = emitExprAs(argList[valueArg], element);
  llvm::Align align(types().byteSize(element));
  if (isFloat && (kind == Intrinsic::AtomicMax || kind == Intrinsic::AtomicMin ||
                  kind == Intrinsic::AtomicNanMax || kind == Intrinsic::AtomicNanMin)) {
    return emitFloatMinMax(ptr, value,
                           kind == Intrinsic::AtomicMax || kind == Intrinsic::AtomicNanMax,
                           kind == Intrinsic::AtomicNanMax || kind == Intrinsic::AtomicNanMin);
  }
  if (kind == Intrinsic::AtomicCas || kind == Intrinsic::AtomicCompareAndSwap) {
    llvm::Value* desired = emitExprAs(argList[valueArg + 1], element);
    auto* cas = builder_.CreateAtomicCmpXchg(ptr, value, desired, align,
                                             llvm::AtomicOrdering::Monotonic,
                                             llvm::AtomicOrdering::Monotonic, deviceScope());
    return builder_.CreateExtractValue(cas, 0);
  }
  if ((kind == Intrinsic::AtomicInc || kind == Intrinsic::AtomicDec) && et.bits == 32) {
    // LLVM 19's NVPTX back end expands udec_wrap into a CAS loop; PTX has
    // atom.inc/dec.u32 (numba uses them), with generic addressing.
    auto* type = llvm::FunctionType::get(builder_.getInt32Ty(),
                                         {builder_.getPtrTy(0), builder_.getInt32Ty()}, false);
    auto* code = llvm::InlineAsm::get(
        type, kind == Intrinsic::AtomicInc ? "atom.inc.u32 $0, [$1], $2;" : "atom.dec.u32 $0, [$1], $2;",
        "=r,l,r,~{memory}", /*hasSideEffects=*/true);
    return builder_.CreateCall(type, code, {ptr, value});
  }
  using Op = llvm::AtomicRMWInst::BinOp;
  Op op;
  switch (kind) {
    case Intrinsic::AtomicAdd: op = isFloat ? Op::FAdd : Op::Add; break;
    case Intrinsic::AtomicSub: op = isFloat ? Op::FSub : Op::Sub; break;
    case Intrinsic::AtomicMax:
    case Intrinsic::AtomicNanMax: op = et.isSigned ? Op::Max : Op::UMax; break;
    case Intrinsic::AtomicMin:
    case Intrinsic::AtomicNanMin: op = et.isSigned ? Op::Min : Op::UMin; break;
    case Intrinsic::AtomicAnd: op = Op::And; break;
    case Intrinsic::AtomicOr: op = Op::Or; break;
    case Intrinsic::AtomicXor: op = Op::Xor; break;
    case Intrinsic::AtomicExch: op = Op::Xchg; break;
    case Intrinsic::AtomicInc: op = Op::UIncWrap; break;
    case Intrinsic::AtomicDec: op = Op::UDecWrap; break;
    default: op = Op::Add; break;
  }
  (void)id;
  return builder_.CreateAtomicRMW(op, ptr, value, align, llvm::AtomicOrdering::Monotonic, deviceScope());
}

llvm::Value* FunctionLowering::emitArrayAlloc(ExprId id, Intrinsic kind, const ast::Call& c) {
  TypeId arrayType = typeOf(id);
  const Type& at = types().get(arrayType);
  // The shape: the first positional argument or `shape=`.
  ExprId shapeExpr;
  auto args = ast_.list(c.args);
  if (!args.empty()) shapeExpr = args[0];
  for (KeywordId k : ast_.list(c.keywords)) {
    const Keyword& kw = ast_.keyword(k);
    if (ast_.str(kw.arg) == "shape" && !shapeExpr.valid()) shapeExpr = kw.value;
  }
  int32_t ci = inst_.constIndex[shapeExpr.index];
  assert(ci >= 0 && "the checker folds shapes");
  const ConstValue& shape = inst_.constants[ci];
  std::vector<int64_t> dims;
  if (shape.kind == ConstValue::Kind::Int) {
    dims.push_back(shape.intValue);
  } else {
    for (const ConstValue& d : shape.elements) dims.push_back(d.intValue);
  }
  llvm::Type* elementType = memoryType(at.element);
  unsigned itemSize = types().byteSize(at.element);
  ArrayParts parts;
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (kind == Intrinsic::SharedArray && dims.size() == 1 && dims[0] == 0) {
    // Dynamic shared memory: as long as the launch's dynamic size allows.
    ml_.noteDynamicShared(inst_);
    llvm::GlobalVariable* g = ml_.dynamicShared();
    parts.data = builder_.CreateAddrSpaceCast(g, builder_.getPtrTy(0));
    auto* asmType = llvm::FunctionType::get(builder_.getInt32Ty(), false);
    auto* smem = llvm::InlineAsm::get(asmType, "mov.u32 $0, %dynamic_smem_size;", "=r", false);
    llvm::Value* bytes = builder_.CreateZExt(builder_.CreateCall(asmType, smem), builder_.getInt64Ty());
    parts.shape.push_back(builder_.CreateUDiv(bytes, builder_.getInt64(itemSize)));
    parts.strides.push_back(builder_.getInt64(1));
    return makeArray(parts, arrayType);
  }
  llvm::Type* storage = llvm::ArrayType::get(elementType, static_cast<uint64_t>(total));
  if (kind == Intrinsic::SharedArray) {
    std::string name = "pykc_shared_" + inst_.symbol + "_" + std::to_string(sharedCounter_++);
    auto* g = new llvm::GlobalVariable(ml_.module(), storage, false,
                                       llvm::GlobalValue::InternalLinkage,
                                       llvm::UndefValue::get(storage), name, nullptr,
                                       llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    // 16 bytes, as nvcc aligns __shared__ arrays: nvJitLink compiles PTX
    // relocatably and cannot raise a global's alignment itself, so only this
    // lets it use 128-bit shared loads (LDS.128) on rows of the array
    // (docs/BENCHMARKS.md: the 16x16 matmul ran 1.23x faster).
    g->setAlignment(llvm::Align(std::max<unsigned>(itemSize, 16)));
    parts.data = builder_.CreateAddrSpaceCast(g, builder_.getPtrTy(0));
  } else {
    auto* slot = llvm::cast<llvm::AllocaInst>(entryAlloca(storage));
    slot->setAlignment(llvm::Align(std::max<unsigned>(itemSize, 16)));
    parts.data = slot;
  }
  // C order.
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  for (size_t d = 0; d < dims.size(); ++d) {
    parts.shape.push_back(builder_.getInt64(dims[d]));
    parts.strides.push_back(builder_.getInt64(strides[d]));
  }
  return makeArray(parts, arrayType);
}

llvm::Value* FunctionLowering::emitExternCall(const ExternFunction& fn,
                                              std::span<const ExprId> args) {
  // numba's ABI (docs/INTEROP.md): `int symbol(ret* out, args...)`, the
  // status ignored (a foreign function cannot raise), the result read back
  // from a local slot. The call stays a call: the body is in another module.
  llvm::Type* ptr = llvm::PointerType::get(context_, 0);
  if (fn.cAbi) {
    // abi="c": `ret symbol(args...)`, the result in registers.
    std::vector<llvm::Type*> params;
    for (TypeId a : fn.args) params.push_back(llvmType(a));
    bool isBool = types().isBool(fn.returnType);
    llvm::Type* ret = isBool ? builder_.getInt8Ty() : llvmType(fn.returnType);
    auto* type = llvm::FunctionType::get(ret, params, false);
    llvm::FunctionCallee callee = ml_.module().getOrInsertFunction(fn.symbol, type);
    std::vector<llvm::Value*> values;
    for (size_t k = 0; k < args.size(); ++k) {
      values.push_back(types().isPointer(fn.args[k]) ? emitExpr(args[k])
                                                     : emitExprAs(args[k], fn.args[k]));
    }
    llvm::CallInst* call = builder_.CreateCall(callee, values);
    if (isBool) return builder_.CreateICmpNE(call, builder_.getInt8(0));
    return call;
  }
  std::vector<llvm::Type*> params{ptr};
  for (TypeId a : fn.args) params.push_back(llvmType(a));
  auto* type = llvm::FunctionType::get(builder_.getInt32Ty(), params, false);
  llvm::FunctionCallee callee = ml_.module().getOrInsertFunction(fn.symbol, type);
  bool isVoid = types().isNone(fn.returnType);
  llvm::Type* slotType = isVoid ? builder_.getInt8Ty() : memoryType(fn.returnType);
  llvm::Value* slot = entryAlloca(slotType);
  std::vector<llvm::Value*> values{slot};
  for (size_t k = 0; k < args.size(); ++k) {
    if (types().isPointer(fn.args[k])) {
      values.push_back(emitExpr(args[k]));
    } else {
      values.push_back(emitExprAs(args[k], fn.args[k]));
    }
  }
  llvm::CallInst* call = builder_.CreateCall(callee, values);
  // A void function's value is the (void) call, as for device functions.
  if (isVoid) return call;
  llvm::Value* result = builder_.CreateLoad(slotType, slot);
  if (types().isBool(fn.returnType)) {
    result = builder_.CreateICmpNE(result, llvm::ConstantInt::get(slotType, 0));
  }
  return result;
}

llvm::Value* FunctionLowering::emitCall(ExprId id, const ast::Call& c) {
  const ExprMeaning& m = inst_.meanings[c.func.index];
  TypeId t = typeOf(id);
  auto args = ast_.list(c.args);
  TypeId opType = inst_.opTypes[id.index];
  switch (m.kind) {
    case Intrinsic::Function: {
      int32_t callee = inst_.callees[id.index];
      assert(callee >= 0 && "device calls are resolved");
      const FunctionInstance& target = ml_.typed().instances[callee];
      std::vector<ExprId> ordered(args.begin(), args.end());
      if (auto it = inst_.callArguments.find(id.index); it != inst_.callArguments.end()) {
        ordered = it->second;
      }
      std::vector<llvm::Value*> values;
      for (size_t k = 0; k < ordered.size(); ++k) {
        values.push_back(emitExprAs(ordered[k], target.argTypes[k]));
      }
      llvm::CallInst* call = builder_.CreateCall(ml_.function(callee), values);
      return call;
    }
    case Intrinsic::ExternFunction:
      return emitExternCall(ml_.typed().module.externs[m.payload], args);
    case Intrinsic::FromBuffer:
      // The array's data pointer (field 0 of the array value).
      return builder_.CreateExtractValue(emitExpr(args[0]), 0);
    case Intrinsic::TypeObject:
    case Intrinsic::Int:
    case Intrinsic::Float:
    case Intrinsic::Bool:
      return emitExprAs(args[0], opType);
    case Intrinsic::ComplexConjugate: {
      ExprId base = ast_.expr(c.func).as<ast::Attribute>().value;
      llvm::Value* v = emitExpr(base);
      if (!types().isComplex(typeOf(base))) return v;
      return makeComplex(builder_.CreateExtractValue(v, 0),
                         builder_.CreateFNeg(builder_.CreateExtractValue(v, 1)), t);
    }
    case Intrinsic::ComplexCtor: {
      llvm::Type* part = llvmType(opType);
      llvm::Value* re = args.empty() ? llvm::ConstantFP::get(part, 0.0) : emitExprAs(args[0], opType);
      llvm::Value* im = args.size() < 2 ? llvm::ConstantFP::get(part, 0.0) : emitExprAs(args[1], opType);
      return makeComplex(re, im, t);
    }
    case Intrinsic::Cmath:
      return emitCmath(id, static_cast<CmathFn>(m.payload), c);
    case Intrinsic::Pow: {
      TypeId exponent = inst_.powExponentTypes[id.index];
      llvm::Value* l = emitExprAs(args[0], opType);
      llvm::Value* r = emitExprAs(args[1], exponent.valid() ? exponent : opType);
      return convert(emitArith(Operator::Pow, l, r, opType, exponent), opType, t);
    }
    case Intrinsic::Fp16:
      return emitFp16(static_cast<Fp16Fn>(m.payload), args);
    case Intrinsic::VectorCtor: {
      // The arguments' elements in order, numbers converted to the base type.
      TypeId element = types().get(t).elements[0];
      std::vector<llvm::Value*> parts;
      for (ExprId arg : args) {
        TypeId at = typeOf(arg);
        llvm::Value* v = emitExpr(arg);
        if (types().isVector(at)) {
          for (unsigned k = 0; k < types().get(at).elements.size(); ++k) {
            parts.push_back(builder_.CreateExtractValue(v, k));
          }
        } else {
          parts.push_back(convert(v, at, element));
        }
      }
      llvm::Value* vector = llvm::PoisonValue::get(llvmType(t));
      for (unsigned k = 0; k < parts.size(); ++k) {
        vector = builder_.CreateInsertValue(vector, parts[k], k);
      }
      return vector;
    }
    case Intrinsic::Random: {
      auto fn = static_cast<RandomFn>(m.payload);
      if (fn == RandomFn::ToUnitFloat32 || fn == RandomFn::ToUnitFloat64) {
        return lowerRandom(builder_, ml_.module(), fn, XoroshiroState{},
                           emitExprAs(args[0], types().uint64()));
      }
      // states[index] (numba's getitem: negative indices wrap), its fields.
      TypeId statesType = typeOf(args[0]);
      llvm::Value* states = emitExpr(args[0]);
      llvm::Value* index = emitExpr(args[1]);
      llvm::Value* seed = args.size() > 2 ? emitExprAs(args[2], types().uint64()) : nullptr;
      llvm::Value* element = elementPointerOf(states, statesType, index, typeOf(args[1]));
      TypeId rec = types().get(statesType).element;
      const Type& rt = types().get(rec);
      auto field = [&](const char* name) {
        return builder_.CreateConstInBoundsGEP1_64(
            builder_.getInt8Ty(), element, rt.fieldOffsets[*types().fieldIndex(rec, name)]);
      };
      return lowerRandom(builder_, ml_.module(), fn, XoroshiroState{field("s0"), field("s1")},
                         seed);
    }
    case Intrinsic::CacheLoad:
    case Intrinsic::CacheStore: {
      TypeId targetType = typeOf(args[0]);
      TypeId element = types().get(targetType).element;
      llvm::Value* ptr;
      if (types().isPointer(targetType)) {
        llvm::Value* base = emitExpr(args[0]);
        llvm::Value* index = convert(emitExpr(args[1]), typeOf(args[1]), types().int64());
        ptr = builder_.CreateGEP(memoryType(element), base, index);
      } else {
        ptr = elementPointer(args[0], args[1], element);
      }
      if (m.kind == Intrinsic::CacheLoad) {
        return lowerCacheLoad(builder_, cacheLoadOperator(m.payload), ptr, llvmType(element));
      }
      lowerCacheStore(builder_, cacheStoreOperator(m.payload), ptr, emitExprAs(args[2], element));
      return nullptr;
    }
    case Intrinsic::Libdevice: {
      LibdeviceSignature sig = libdeviceSignature(m.payload, types());
      LibdeviceCallTypes callTypes;
      callTypes.result = types().isNone(sig.result) ? nullptr : llvmType(sig.result);
      for (TypeId p : sig.params) callTypes.params.push_back(llvmType(p));
      callTypes.output = sig.output;
      callTypes.value = llvmType(t);
      std::vector<llvm::Value*> values;
      for (size_t k = 0; k < args.size(); ++k) values.push_back(emitExprAs(args[k], sig.args[k]));
      return lowerLibdeviceCall(builder_, ml_.module(), libdeviceFn(m.payload).name, callTypes,
                                values);
    }
    case Intrinsic::Abs: {
      if (types().isComplex(opType)) {
        llvm::Value* z = emitExprAs(args[0], opType);
        return callLibdevice("hypot", types().complexPart(opType),
                             {builder_.CreateExtractValue(z, 0), builder_.CreateExtractValue(z, 1)});
      }
      llvm::Value* v = emitExprAs(args[0], opType);
      if (types().isFloat(opType)) return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
      if (!types().get(opType).isSigned) return v;
      llvm::Value* negative = builder_.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0));
      return builder_.CreateSelect(negative, builder_.CreateNeg(v), v);
    }
    case Intrinsic::Min:
    case Intrinsic::Max: {
      // Python: keep the first extreme value (NaN compares false).
      llvm::Value* result = emitExprAs(args[0], opType);
      for (size_t k = 1; k < args.size(); ++k) {
        llvm::Value* v = emitExprAs(args[k], opType);
        llvm::Value* better = emitCmp(m.kind == Intrinsic::Max ? CmpOp::Gt : CmpOp::Lt, v, result, opType);
        result = builder_.CreateSelect(better, v, result);
      }
      return result;
    }
    case Intrinsic::Len: {
      llvm::Value* array = emitExpr(args[0]);
      return builder_.CreateExtractValue(array, {1u, 0u});
    }
    case Intrinsic::Round: {
      llvm::Value* v = emitExprAs(args[0], opType);
      if (!types().isFloat(opType)) return convert(v, opType, t);
      if (args.size() == 1) {
        llvm::Value* r = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, v);
        return convert(r, opType, t);
      }
      // numba's round(x, ndigits): scale by 10**|ndigits|, round half to even.
      llvm::Value* digits = emitExprAs(args[1], types().int64());
      llvm::Value* ten = llvm::ConstantFP::get(v->getType(), 10.0);
      llvm::Value* negative = builder_.CreateICmpSLT(digits, builder_.getInt64(0));
      llvm::Value* magnitude = builder_.CreateSelect(negative, builder_.CreateNeg(digits), digits);
      llvm::Value* scale = builder_.CreateCall(ml_.powHelper(opType, types().int64()), {ten, magnitude});
      llvm::Value* up = builder_.CreateFDiv(
          builder_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, builder_.CreateFMul(v, scale)), scale);
      llvm::Value* down = builder_.CreateFMul(
          builder_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, builder_.CreateFDiv(v, scale)), scale);
      return builder_.CreateSelect(negative, down, up);
    }
    case Intrinsic::Math: {
      llvm::Value* v = emitMath(id, static_cast<MathFn>(m.payload), c);
      // float16 results are computed in float32.
      if (types().isFloat(t) && types().get(t).bits == 16 && !v->getType()->isHalfTy()) {
        v = builder_.CreateFPTrunc(v, llvmType(t));
      }
      return v;
    }
    case Intrinsic::Grid:
    case Intrinsic::Gridsize: {
      unsigned n = inst_.meanings[id.index].payload;
      bool size = m.kind == Intrinsic::Gridsize;
      if (n == 1) return gridPart(size, 0);
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
      for (unsigned d = 0; d < n; ++d) agg = builder_.CreateInsertValue(agg, gridPart(size, d), d);
      return agg;
    }
    case Intrinsic::Syncthreads:
      builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_barrier0));
      return nullptr;
    case Intrinsic::ThisGrid:
      return nullptr;
    case Intrinsic::ShflSync:
    case Intrinsic::ShflUpSync:
    case Intrinsic::ShflDownSync:
    case Intrinsic::ShflXorSync:
      return emitShuffle(m.kind, args);
    case Intrinsic::AllSync:
    case Intrinsic::AnySync:
    case Intrinsic::EqSync:
    case Intrinsic::BallotSync: {
      llvm::Value* mask = emitExprAs(args[0], types().intType(32, false));
      llvm::Value* pred = emitExprAs(args[1], types().boolean());
      llvm::Intrinsic::ID iid = m.kind == Intrinsic::AllSync   ? llvm::Intrinsic::nvvm_vote_all_sync
                                : m.kind == Intrinsic::AnySync ? llvm::Intrinsic::nvvm_vote_any_sync
                                : m.kind == Intrinsic::EqSync  ? llvm::Intrinsic::nvvm_vote_uni_sync
                                                               : llvm::Intrinsic::nvvm_vote_ballot_sync;
      return builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid), {mask, pred});
    }
    case Intrinsic::Activemask: {
      auto* type = llvm::FunctionType::get(builder_.getInt32Ty(), false);
      auto* code = llvm::InlineAsm::get(type, "activemask.b32 $0;", "=r", /*hasSideEffects=*/true);
      return builder_.CreateCall(type, code);
    }
    case Intrinsic::LanemaskLt:
      return builder_.CreateCall(
          llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_read_ptx_sreg_lanemask_lt));
    case Intrinsic::Popc:
    case Intrinsic::Clz:
    case Intrinsic::Ffs:
    case Intrinsic::Brev: {
      llvm::Value* v = emitExprAs(args[0], opType);
      llvm::Type* it = v->getType();
      if (m.kind == Intrinsic::Popc) return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, v);
      if (m.kind == Intrinsic::Clz) {
        return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, v, builder_.getFalse());
      }
      if (m.kind == Intrinsic::Brev) {
        if (it->getIntegerBitWidth() < 32) v = builder_.CreateZExt(v, builder_.getInt32Ty());
        return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, v);
      }
      // ffs: 1-based position of the lowest set bit, 0 for 0.
      llvm::Value* tz = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, v, builder_.getTrue());
      llvm::Value* pos = builder_.CreateAdd(builder_.CreateZExtOrTrunc(tz, builder_.getInt32Ty()),
                                            builder_.getInt32(1));
      return builder_.CreateSelect(builder_.CreateICmpEQ(v, llvm::ConstantInt::get(it, 0)),
                                   builder_.getInt32(0), pos);
    }
    case Intrinsic::Fma: {
      llvm::Value* a = emitExprAs(args[0], opType);
      llvm::Value* b = emitExprAs(args[1], opType);
      llvm::Value* c = emitExprAs(args[2], opType);
      return builder_.CreateIntrinsic(llvm::Intrinsic::fma, {a->getType()}, {a, b, c});
    }
    case Intrinsic::Cbrt:
      return callLibdevice("cbrt", opType, {emitExprAs(args[0], opType)});
    case Intrinsic::GridSync:
      ml_.noteCooperative(inst_);
      emitGridSync();
      return nullptr;
    case Intrinsic::SyncthreadsCount:
    case Intrinsic::SyncthreadsAnd:
    case Intrinsic::SyncthreadsOr: {
      llvm::Value* pred = builder_.CreateZExt(emitExprAs(args[0], types().boolean()), builder_.getInt32Ty());
      llvm::Intrinsic::ID iid = m.kind == Intrinsic::SyncthreadsCount ? llvm::Intrinsic::nvvm_barrier0_popc
                                : m.kind == Intrinsic::SyncthreadsAnd ? llvm::Intrinsic::nvvm_barrier0_and
                                                                      : llvm::Intrinsic::nvvm_barrier0_or;
      return builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid), {pred});
    }
    case Intrinsic::Syncwarp: {
      llvm::Value* mask = args.empty() ? builder_.getInt32(0xffffffffu)
                                       : emitExprAs(args[0], types().intType(32, false));
      builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_bar_warp_sync), {mask});
      return nullptr;
    }
    case Intrinsic::Threadfence:
    case Intrinsic::ThreadfenceBlock:
    case Intrinsic::ThreadfenceSystem: {
      llvm::Intrinsic::ID iid = m.kind == Intrinsic::Threadfence ? llvm::Intrinsic::nvvm_membar_gl
                                : m.kind == Intrinsic::ThreadfenceBlock ? llvm::Intrinsic::nvvm_membar_cta
                                                                        : llvm::Intrinsic::nvvm_membar_sys;
      builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid));
      return nullptr;
    }
    case Intrinsic::SharedArray:
    case Intrinsic::LocalArray:
      return emitArrayAlloc(id, m.kind, c);
    case Intrinsic::AtomicAdd:
    case Intrinsic::AtomicSub:
    case Intrinsic::AtomicMax:
    case Intrinsic::AtomicMin:
    case Intrinsic::AtomicAnd:
    case Intrinsic::AtomicOr:
    case Intrinsic::AtomicXor:
    case Intrinsic::AtomicExch:
    case Intrinsic::AtomicInc:
    case Intrinsic::AtomicDec:
    case Intrinsic::AtomicCas:
    case Intrinsic::AtomicNanMax:
    case Intrinsic::AtomicNanMin:
    case Intrinsic::AtomicCompareAndSwap:
      return emitAtomic(id, m.kind, c);
    case Intrinsic::MatchAnySync:
    case Intrinsic::MatchAllSync:
      return emitMatch(m.kind, args, opType);
    case Intrinsic::ConstArrayLike:
      return emitExpr(args[0]);
    case Intrinsic::Print:
      emitPrint(args);
      return nullptr;
    case Intrinsic::Selp: {
      llvm::Value* pred = emitExprAs(args[0], types().boolean());
      llvm::Value* a = emitExprAs(args[1], opType);
      llvm::Value* b = emitExprAs(args[2], opType);
      return builder_.CreateSelect(pred, a, b);
    }
    case Intrinsic::Nanosleep: {
      llvm::Value* ns = emitExprAs(args[0], types().intType(32, false));
      auto* type = llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getInt32Ty()}, false);
      auto* code = llvm::InlineAsm::get(type, "nanosleep.u32 $0;", "r", /*hasSideEffects=*/true);
      builder_.CreateCall(type, code, {ns});
      return nullptr;
    }
    default:
      break;
  }
  assert(false && "the checker rejects this call");
  return nullptr;
}

}  // namespace

LoweredModule lowerToLlvm(const frontend::Ast& ast, const frontend::TypedModule& typed,
                          llvm::LLVMContext& context, const LoweringOptions& options) {
  ModuleLowering lowering(ast, typed, context, options);
  return lowering.run();
}

}  // namespace lowering
