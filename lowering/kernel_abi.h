#pragma once
// The kernel parameter ABI of docs/ABI.md, for both dialects: how a kernel
// argument of each type becomes LLVM parameters (bool as i8; an array as its
// data pointer, then ndim extents, then ndim strides in elements, all i64;
// complex as two floats; tuples flattened) and how a kernel's body reads them
// back. numba's SIMT lowering and the tile lowering both declare and unpack
// their kernels through these.
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "sema/types.h"

namespace lowering {

// Appends the LLVM parameters of one kernel argument of type `t`.
void appendKernelParams(llvm::LLVMContext& context, const frontend::TypeTable& types, frontend::TypeId t,
                        std::vector<llvm::Type*>& params);

// How many LLVM parameters one kernel argument of type `t` takes.
unsigned kernelParamCount(llvm::LLVMContext& context, const frontend::TypeTable& types, frontend::TypeId t);

// One array argument as the kernel receives it.
struct ArrayParams {
  llvm::Value* data = nullptr;
  std::vector<llvm::Value*> shape;
  std::vector<llvm::Value*> strides;
};

// Reads a kernel's parameters in ABI order: `next` is the index of the next
// LLVM parameter of `function`.
class KernelParamReader {
public:
  explicit KernelParamReader(llvm::Function* function) : function_(function) {}
  // The next parameter as it is (scalars other than bool, each complex part).
  llvm::Value* take() { return function_->getArg(next_++); }
  // A bool argument (passed as i8) as i1.
  llvm::Value* takeBool(llvm::IRBuilderBase& b) { return b.CreateICmpNE(take(), b.getInt8(0)); }
  ArrayParams takeArray(unsigned ndim);

private:
  llvm::Function* function_;
  unsigned next_ = 0;
};

}  // namespace lowering
