#include "lowering/simt/libdevice_calls.h"
#include "lowering/scalar.h"

#include <string>

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace lowering {

llvm::Value* lowerLibdeviceCall(llvm::IRBuilderBase& b, llvm::Module& module,
                                std::string_view name, const LibdeviceCallTypes& types,
                                const std::vector<llvm::Value*>& args) {
  llvm::LLVMContext& context = module.getContext();
  llvm::Type* ptr = llvm::PointerType::get(context, 0);
  std::vector<llvm::Type*> params;
  for (size_t k = 0; k < types.params.size(); ++k) {
    params.push_back(types.output[k] ? ptr : types.params[k]);
  }
  llvm::Type* result = types.result != nullptr ? types.result : llvm::Type::getVoidTy(context);
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      libdeviceName(name, false), llvm::FunctionType::get(result, params, false));

  llvm::BasicBlock& entry = b.GetInsertBlock()->getParent()->getEntryBlock();
  llvm::IRBuilder<> entryBuilder(&entry, entry.begin());
  std::vector<llvm::Value*> values;
  std::vector<std::pair<llvm::Type*, llvm::Value*>> slots;
  size_t next = 0;
  for (size_t k = 0; k < types.params.size(); ++k) {
    if (types.output[k]) {
      llvm::Value* slot = entryBuilder.CreateAlloca(types.params[k]);
      slots.emplace_back(types.params[k], slot);
      values.push_back(slot);
    } else {
      values.push_back(args[next++]);
    }
  }
  llvm::Value* call = b.CreateCall(callee, values);
  if (slots.empty()) return call;

  std::vector<llvm::Value*> parts;
  if (types.result != nullptr) parts.push_back(call);
  for (const auto& [type, slot] : slots) parts.push_back(b.CreateLoad(type, slot));
  if (parts.size() == 1) return parts[0];
  llvm::Value* aggregate = llvm::PoisonValue::get(types.value);
  for (unsigned k = 0; k < parts.size(); ++k) {
    aggregate = b.CreateInsertValue(aggregate, parts[k], k);
  }
  return aggregate;
}

}  // namespace lowering
