#pragma once
// PTX emission: an NVPTX llvm::Module to PTX text.
#include <llvm/Support/Error.h>

#include <string>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace backend {

struct CodegenOptions;

// The PTX text for `module` compiled for `options`: createTargetMachine, then
// optimizeModule (optimize.h), then codegen. The module is optimized in place
// (afterwards it is the IR that `inspect --emit llvm` shows). The same module
// and options always give the same bytes. Fails on an unsupported arch, an
// invalid module, an unreadable libdevice or a codegen failure. Needs
// initializeNvptxTarget() first; refers to nothing once it returns.
llvm::Expected<std::string> emitPtx(llvm::Module& module, const CodegenOptions& options);

// Codegen only: the PTX text for a module that optimizeModule already
// prepared for `machine`. Fails if the target cannot emit assembly.
llvm::Expected<std::string> codegenPtx(llvm::Module& module, llvm::TargetMachine& machine);

}  // namespace backend
