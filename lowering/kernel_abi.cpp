#include "lowering/kernel_abi.h"

#include "lowering/scalar.h"

namespace lowering {

using frontend::Type;
using frontend::TypeId;
using frontend::TypeKind;

void appendKernelParams(llvm::LLVMContext& context, const frontend::TypeTable& types, TypeId id,
                        std::vector<llvm::Type*>& params) {
  const Type& t = types.get(id);
  switch (t.kind) {
    case TypeKind::Bool:
      params.push_back(llvm::Type::getInt8Ty(context));
      return;
    case TypeKind::Array:
      params.push_back(llvm::PointerType::get(context, 0));
      for (unsigned d = 0; d < 2u * t.ndim; ++d) params.push_back(llvm::Type::getInt64Ty(context));
      return;
    case TypeKind::Tuple:
      for (TypeId e : std::vector<TypeId>(t.elements)) appendKernelParams(context, types, e, params);
      return;
    case TypeKind::Complex: {
      // docs/ABI.md: two floats (real, imaginary).
      llvm::Type* part = t.bits == 64 ? llvm::Type::getFloatTy(context) : llvm::Type::getDoubleTy(context);
      params.push_back(part);
      params.push_back(part);
      return;
    }
    case TypeKind::Pointer:
    case TypeKind::Record:
      params.push_back(llvm::PointerType::get(context, 0));
      return;
    default:
      params.push_back(scalarLlvmType(context, t));
      return;
  }
}

unsigned kernelParamCount(llvm::LLVMContext& context, const frontend::TypeTable& types, TypeId id) {
  std::vector<llvm::Type*> params;
  appendKernelParams(context, types, id, params);
  return static_cast<unsigned>(params.size());
}

ArrayParams KernelParamReader::takeArray(unsigned ndim) {
  ArrayParams a;
  a.data = take();
  for (unsigned d = 0; d < ndim; ++d) a.shape.push_back(take());
  for (unsigned d = 0; d < ndim; ++d) a.strides.push_back(take());
  return a;
}

}  // namespace lowering
