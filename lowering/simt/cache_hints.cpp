#include "lowering/simt/cache_hints.h"

#include <string>

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"

namespace lowering {

namespace {

// The integer type the asm operand has, and its constraint: PTX has no 8-bit
// registers, so 8-bit values travel in 32-bit ones (`ld.b8` into a wider
// register is allowed: PTX ISA, "Restricted use of sub-word sizes"), as in
// numba's CONSTRAINT_MAP; floats travel as their bits.
struct Operand {
  llvm::IntegerType* type;
  const char* constraint;
};

Operand operandFor(llvm::Type* element) {
  llvm::LLVMContext& c = element->getContext();
  switch (element->getPrimitiveSizeInBits().getFixedValue()) {
    case 8:
    case 32:
      return {llvm::Type::getInt32Ty(c), "r"};
    case 16:
      return {llvm::Type::getInt16Ty(c), "h"};
    default:
      return {llvm::Type::getInt64Ty(c), "l"};
  }
}

unsigned bitsOf(llvm::Type* element) {
  return static_cast<unsigned>(element->getPrimitiveSizeInBits().getFixedValue());
}

}  // namespace

llvm::Value* lowerCacheLoad(llvm::IRBuilderBase& b, std::string_view op, llvm::Value* ptr,
                            llvm::Type* element) {
  unsigned bits = bitsOf(element);
  Operand o = operandFor(element);
  auto* type = llvm::FunctionType::get(o.type, {ptr->getType()}, false);
  std::string text = "ld.global." + std::string(op) + ".b" + std::to_string(bits) + " $0, [$1];";
  // Side effects keep the load where the program puts it (`cv` means "fetch
  // again"; numba's asm is not marked, so NVVM could merge two loads).
  auto* asmValue = llvm::InlineAsm::get(type, text, "=" + std::string(o.constraint) + ",l",
                                        /*hasSideEffects=*/true);
  llvm::Value* v = b.CreateCall(type, asmValue, {ptr});
  llvm::Type* sameWidth = b.getIntNTy(bits);
  if (o.type != sameWidth) v = b.CreateTrunc(v, sameWidth);
  return element->isIntegerTy() ? v : b.CreateBitCast(v, element);
}

void lowerCacheStore(llvm::IRBuilderBase& b, std::string_view op, llvm::Value* ptr,
                     llvm::Value* value) {
  llvm::Type* element = value->getType();
  unsigned bits = bitsOf(element);
  Operand o = operandFor(element);
  llvm::Value* v = element->isIntegerTy() ? value : b.CreateBitCast(value, b.getIntNTy(bits));
  if (o.type != v->getType()) v = b.CreateZExt(v, o.type);
  auto* type = llvm::FunctionType::get(b.getVoidTy(), {ptr->getType(), o.type}, false);
  std::string text = "st.global." + std::string(op) + ".b" + std::to_string(bits) + " [$0], $1;";
  auto* asmValue = llvm::InlineAsm::get(type, text, "l," + std::string(o.constraint) + ",~{memory}",
                                        /*hasSideEffects=*/true);
  b.CreateCall(type, asmValue, {ptr, v});
}

}  // namespace lowering
