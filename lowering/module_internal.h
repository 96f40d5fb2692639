#pragma once
// The module layer of the lowering, shared by both dialects: one llvm::Module
// per TypedModule, every instance declared in the kernel ABI
// (lowering/kernel_abi.h) with its kernel annotations, line tables, and each
// instance lowered by its dialect (lowering/simt/ or lowering/tile/), then the
// per-kernel facts (KernelInfo). Also the module-level objects numba's SIMT
// kernels share (dynamic shared memory, the grid barrier, constant arrays,
// the error word, strings, integer-power helpers). Private to lowering/;
// the entry point is lowering/lower.h.
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lowering/lower.h"
#include "sema/typed_module.h"
#include "syntax/ast.h"

namespace lowering {

using frontend::Ast;
using frontend::FunctionInstance;
using frontend::TypedModule;
using frontend::TypeId;
using frontend::TypeTable;

constexpr const char* kTriple = "nvptx64-nvidia-cuda";
constexpr const char* kDataLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";
constexpr unsigned kSharedAddressSpace = 3;

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

}  // namespace lowering
