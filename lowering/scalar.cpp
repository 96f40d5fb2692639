#include "lowering/scalar.h"

#include <llvm/IR/Module.h>

#include "lowering/float8.h"

namespace lowering {

using frontend::Type;
using frontend::TypeKind;

llvm::Type* scalarLlvmType(llvm::LLVMContext& context, const Type& t) {
  switch (t.kind) {
    case TypeKind::Bool:
      return llvm::Type::getInt1Ty(context);
    case TypeKind::Int:
      return llvm::Type::getIntNTy(context, t.bits);
    case TypeKind::Float:
      if (t.format == frontend::FloatFormat::BFloat) return llvm::Type::getBFloatTy(context);
      if (t.bits == 8) return llvm::Type::getInt8Ty(context);  // the 8-bit floats' bits
      if (t.bits == 16) return llvm::Type::getHalfTy(context);
      return t.bits == 32 ? llvm::Type::getFloatTy(context) : llvm::Type::getDoubleTy(context);
    default:
      return nullptr;
  }
}

llvm::Value* convertScalar(llvm::IRBuilderBase& b, llvm::Value* v, const Type& f, const Type& t) {
  llvm::Type* dst = scalarLlvmType(b.getContext(), t);
  bool f8 = f.kind == TypeKind::Float && f.bits == 8;
  bool t8 = t.kind == TypeKind::Float && t.bits == 8;
  if (f8 || t8) {
    // The 8-bit floats convert through float32 (lowering/float8.h).
    if (f8 && t8 && f.format == t.format) return v;
    Type single;
    single.kind = TypeKind::Float;
    single.bits = 32;
    llvm::Value* x = f8 ? float8ToFloat(b, v, f.format) : convertScalar(b, v, f, single);
    return t8 ? floatToFloat8(b, x, t.format) : convertScalar(b, x, single, t);
  }
  if (t.kind == TypeKind::Bool) {
    if (f.kind == TypeKind::Bool) return v;
    // NaN is true in Python.
    if (f.kind == TypeKind::Float) return b.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    return b.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  if (f.kind == TypeKind::Bool) {
    return t.kind == TypeKind::Float ? b.CreateUIToFP(v, dst) : b.CreateZExt(v, dst);
  }
  if (f.kind == TypeKind::Float && t.kind == TypeKind::Float) {
    if (f.bits == t.bits && f.bits == 16) {
      // float16 <-> bfloat16 through float32.
      return b.CreateFPTrunc(b.CreateFPExt(v, b.getFloatTy()), dst);
    }
    return f.bits < t.bits ? b.CreateFPExt(v, dst) : b.CreateFPTrunc(v, dst);
  }
  if (f.kind == TypeKind::Int && t.kind == TypeKind::Float) {
    return f.isSigned ? b.CreateSIToFP(v, dst) : b.CreateUIToFP(v, dst);
  }
  if (f.kind == TypeKind::Float && t.kind == TypeKind::Int) {
    return t.isSigned ? b.CreateFPToSI(v, dst) : b.CreateFPToUI(v, dst);
  }
  return b.CreateIntCast(v, dst, f.isSigned);
}

llvm::Value* integerFloorDivMod(llvm::IRBuilderBase& b, llvm::Value* l, llvm::Value* r, bool isSigned,
                                bool mod) {
  llvm::Type* t = l->getType();
  llvm::Value* zero = llvm::ConstantInt::get(t, 0);
  llvm::Value* isZero = b.CreateICmpEQ(r, zero);
  llvm::Value* safe = b.CreateSelect(isZero, llvm::ConstantInt::get(t, 1), r);
  llvm::Value* result;
  if (!isSigned) {
    result = mod ? b.CreateURem(l, safe) : b.CreateUDiv(l, safe);
  } else {
    llvm::Value* minusOne = b.CreateICmpEQ(safe, llvm::ConstantInt::get(t, -1, true));
    llvm::Value* divisor = b.CreateSelect(minusOne, llvm::ConstantInt::get(t, 1), safe);
    llvm::Value* q = b.CreateSDiv(l, divisor);
    llvm::Value* rem = b.CreateSRem(l, divisor);
    q = b.CreateSelect(minusOne, b.CreateNeg(l), q);
    rem = b.CreateSelect(minusOne, zero, rem);
    // A nonzero remainder whose sign differs from the divisor's moves the
    // quotient down by one and the remainder up by the divisor.
    llvm::Value* adjust = b.CreateAnd(b.CreateICmpNE(rem, zero), b.CreateICmpSLT(b.CreateXor(rem, safe), zero));
    if (mod) {
      result = b.CreateSelect(adjust, b.CreateAdd(rem, safe), rem);
    } else {
      result = b.CreateSelect(adjust, b.CreateSub(q, llvm::ConstantInt::get(t, 1)), q);
    }
  }
  return b.CreateSelect(isZero, zero, result);
}

std::string libdeviceName(std::string_view base, bool single) {
  return "__nv_" + std::string(base) + (single ? "f" : "");
}

llvm::Value* callLibdevice(llvm::IRBuilderBase& b, llvm::Module& module, std::string_view base, bool single,
                           const std::vector<llvm::Value*>& args, llvm::Type* result) {
  std::vector<llvm::Type*> params;
  for (llvm::Value* a : args) params.push_back(a->getType());
  if (result == nullptr) result = params.front();
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(libdeviceName(base, single), llvm::FunctionType::get(result, params, false));
  return b.CreateCall(callee, args);
}

}  // namespace lowering
