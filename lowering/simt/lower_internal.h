#pragma once
// numba SIMT kernels to LLVM IR: FunctionLowering, one device function or
// kernel instance (lower_function.cpp, values and statements; lower_expr.cpp;
// lower_call.cpp), over the module layer of lowering/module_internal.h.
#include "lowering/lower.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/CFG.h>
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
#include "lowering/kernel_abi.h"
#include "lowering/module_internal.h"
#include "lowering/scalar.h"
#include "support/arch.h"
#include "lowering/simt/complex_math.h"
#include "lowering/simt/cache_hints.h"
#include "lowering/simt/libdevice_calls.h"
#include "lowering/simt/xoroshiro.h"


namespace lowering::simt {



using namespace frontend;


struct MathInfo {
  std::string_view libdevice;
};
constexpr MathInfo kMathInfo[] = {
#define PYKC_MATH(Name, PyName, Arity, Libdevice) {Libdevice},
#include "sema/math_functions.def"
};

// An array value: the ABI's data pointer, shapes and strides (elements).
using ArrayParts = ArrayParams;

struct LoopTargets {
  llvm::BasicBlock* continueBlock;
  llvm::BasicBlock* breakBlock;
};

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
  // Emits `body` into `block`, then a branch to `next` unless it ended in one.
  void emitBlock(llvm::BasicBlock* block, StmtList body, llvm::BasicBlock* next);
  void emitStmt(StmtId id);
  void emitFor(StmtId id, const ast::For& f);
  void emitIterFor(StmtId id, const ast::For& f, const ForIteration& plan);
  void emitLoopElse(const ast::For& f, llvm::BasicBlock* otherwise, llvm::BasicBlock* exit);
  void rangeParts(const ast::Call& call, TypeId t, llvm::Value*& start, llvm::Value*& step,
                  llvm::Value*& length);
  void storeTarget(ExprId target, llvm::Value* value, TypeId type);
  bool terminated() const { return builder_.GetInsertBlock()->getTerminator() != nullptr; }
  // Whether the insertion block can never run: code after a `return`, or after an `if`
  // whose branches all end (the checker types none of it: neverFallsThrough).
  bool deadEnd() const {
    llvm::BasicBlock* b = builder_.GetInsertBlock();
    return b->getTerminator() != nullptr || (b != entry_ && llvm::pred_empty(b));
  }
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
  // The math function on values: `operand` is the type it computes in, `result`
  // the type of its value (frexp/modf: their tuple).
  llvm::Value* mathOnValues(MathFn fn, TypeId operand, TypeId result, std::vector<llvm::Value*> args,
                            const std::vector<TypeId>& argTypes);
  // NumPy's arithmetic ufuncs on numbers (np.add, np.maximum, np.sign, ...).
  llvm::Value* emitNumpyFn(NumpyFn fn, std::span<const ExprId> args, TypeId opType, TypeId exponent,
                           TypeId result);
  // NumPy's ufunc with an output array (`np.sin(x, out)`): an element loop.
  llvm::Value* emitUfunc(ExprId id, MathFn fn);
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
  // An exception without debug=True: the thread ends (a kernel returns; a device
  // function runs PTX `exit`, where numba returns through every caller doing nothing
  // more). Leaves the builder after a terminator.
  void endThread();
  // `return` in a device function returning numba's Optional: {value, false}, or for
  // None (`value` null) {0, true}.
  void returnOptional(llvm::Value* value);
  // Set by an expression statement around its call: the result is discarded, so an
  // Optional result that is None ends nothing (numba casts only where it is used).
  bool discardResult_ = false;
  // Loop nests over an array's indices (slice stores, ufuncs with an output array).
  struct LoopNest {
    std::vector<llvm::AllocaInst*> counters;
    std::vector<llvm::BasicBlock*> latches;
    std::vector<llvm::BasicBlock*> exits;
  };
  LoopNest openLoopNest(const std::vector<llvm::Value*>& shape);
  std::vector<llvm::Value*> loopIndices(const LoopNest& nest);
  void closeLoopNest(const LoopNest& nest);
  llvm::Value* linearOffset(const std::vector<llvm::Value*>& index,
                            const std::vector<llvm::Value*>& strides);
  std::vector<llvm::Value*> broadcastStrides(ArrayParts& src, TypeId srcType,
                                             const std::vector<llvm::Value*>& shape,
                                             llvm::Value*& mismatch);
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


}  // namespace lowering::simt
