#pragma once
// PTX emission: an NVPTX llvm::Module to PTX text.
#include <llvm/Support/Error.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

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

// As emitPtx, for a module that is one part of a larger set of kernels whose
// PTX mergePtx will put together: after optimisation every definition that is
// not a kernel (device functions, libdevice, shared and constant globals,
// strings) is renamed with `partSuffix` appended (e.g. "$p3"; PTX allows `$`
// in names, pykc's own names never hold one), unnamed ones first named
// "pykc_anon", so that no two parts define the same name. Kernels keep their
// names: they must be unique across the parts.
llvm::Expected<std::string> emitPtxPart(llvm::Module& module, const CodegenOptions& options,
                                        std::string_view partSuffix);

// One PTX module holding every part, in order, as emitPtxPart emitted them for
// the same options: the first part's header (through `.address_size`), then
// each part's body, with an `.extern` declaration dropped where an identical
// one came before (several parts declare `vprintf` or dynamic shared memory).
// Fails, naming the part, if a part has no header or its header differs from
// the first's. Deterministic: the same parts give the same bytes.
llvm::Expected<std::string> mergePtx(std::span<const std::string> parts);

// `ptx` with the CTAs-per-SM hint of kernel `symbol` set to `ctas`: a
// `.minnctapersm ctas` line after the entry's `.maxntid` line (replacing one
// already there), or, with `ctas` 0, without one. ptxas then fits the kernel in
// 65536 / (ctas * threads) registers a thread, rounded down to a multiple of 8.
// Unchanged if `symbol` has no entry or the entry no `.maxntid`.
std::string withMinCtasPerSm(std::string_view ptx, std::string_view symbol, uint32_t ctas);

// Codegen only: the PTX text for a module that optimizeModule already
// prepared for `machine`, its call sites (`// callseq N`, `prototype_N`)
// numbered from 0 in order (LLVM counts them per process, which would make
// the text depend on earlier compiles). Fails if the target cannot emit
// assembly.
llvm::Expected<std::string> codegenPtx(llvm::Module& module, llvm::TargetMachine& machine);

}  // namespace backend
