#pragma once
// Calls of numba.cuda.libdevice functions (sema/libdevice_functions.def)
// as numba-cuda's libdeviceimpl.py makes them: output pointer parameters
// become local slots whose values join the result tuple.
#include <string_view>
#include <vector>

namespace llvm {
class IRBuilderBase;
class Module;
class Type;
class Value;
}  // namespace llvm

namespace lowering {

// The LLVM form of one libdevice function's signature.
struct LibdeviceCallTypes {
  // The function's result type; nullptr for void.
  llvm::Type* result = nullptr;
  std::vector<llvm::Type*> params;
  // params[k] is an output pointer to a value of that type.
  std::vector<bool> output;
  // The value Python sees: the result, or a struct of the result and the
  // outputs (in that order).
  llvm::Type* value = nullptr;
};

// Calls `__nv_<name>` (declared in `module` if needed) with `args`, the
// non-output parameters already converted to their types; allocates the
// output slots in the current function's entry block.
llvm::Value* lowerLibdeviceCall(llvm::IRBuilderBase& b, llvm::Module& module,
                                std::string_view name, const LibdeviceCallTypes& types,
                                const std::vector<llvm::Value*>& args);

}  // namespace lowering
