#pragma once
// Everything between lowering's llvm::Module and codegen: libdevice, the
// __nvvm_reflect queries, internalization and the optimisation pipeline.
#include <llvm/Support/Error.h>

#include <string_view>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace backend {

struct CodegenOptions;

// Links into `module` the libdevice functions it calls (its `__nv_*`
// declarations) and what those call, nothing else. The bitcode at `path` is
// read lazily: only the bodies linked are parsed (about 1 ms instead of 30).
// Sets the library's triple and data layout to the module's first, so the
// module should already have its own. Returns how many `__nv_*` declarations
// the module had (0: the file is not even opened). Fails if the file cannot be
// read or parsed, or if it lacks a function the module declares.
llvm::Expected<unsigned> linkLibdevice(llvm::Module& module, std::string_view path);

// Replaces each `__nvvm_reflect("NAME")` / `llvm.nvvm.reflect` call with its
// value for `options`: __CUDA_FTZ is 1 with ftz or fastMath, __CUDA_PREC_DIV
// and __CUDA_PREC_SQRT are 1 unless fastMath, __CUDA_ARCH is the SM number
// times ten, anything else 0. Done here rather than by LLVM 19's NVVMReflect
// pass, which folds __CUDA_PREC_SQRT to 0 (approximate sqrt). Returns the
// number of calls replaced. Fails if an argument is not a constant string or
// the arch is unsupported.
llvm::Expected<unsigned> resolveNvvmReflect(llvm::Module& module,
                                            const CodegenOptions& options);

// Prepares `module` for codegen on `machine`, in place: sets its triple and
// data layout, verifies it, applies fast math to its own instructions, links
// libdevice lazily, resolves __nvvm_reflect, sets the fp-math function
// attributes, adds `.maxnreg` annotations, strips debug information down to
// what lineInfo/debug keep, internalizes everything but the kernels (functions
// with the ptx_kernel calling convention or `nvvm.annotations` "kernel"), and
// runs the new pass manager's O<optLevel> pipeline. Fails on an invalid module
// (the verifier's message), an unreadable libdevice, or a bad reflect call;
// the module may then be half-processed and must not be used further.
// `machine` must have been made for `options` (createTargetMachine).
llvm::Error optimizeModule(llvm::Module& module, llvm::TargetMachine& machine,
                           const CodegenOptions& options);

}  // namespace backend
