#pragma once
// Typed IR to an NVPTX llvm::Module: one `ptx_kernel` entry per kernel x
// signature in the ABI of docs/ABI.md, device functions as internal
// functions specialised per argument types, shared arrays as addrspace(3)
// globals, libdevice declarations for math (linked later by the backend).
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace frontend {
class Ast;
struct TypedModule;
}  // namespace frontend

namespace lowering {

struct LoweringOptions {
  // Emit DILocations (DICompileUnit with LineTablesOnly) pointing at the
  // Python file and lines; kernels with `lineinfo=True` get them regardless.
  bool lineInfo = false;
  // The target (`sm_90a`, ...): tile kernels use Hopper's wgmma on sm_90a only.
  std::string arch;
};

// What a launcher needs to know about one lowered kernel beyond its types.
struct KernelInfo {
  std::string symbol;
  // Uses `cuda.shared.array(0, ...)` (sized by the launch's dynamic shared
  // memory), directly or through device functions.
  bool dynamicSharedMemory = false;
  // Uses cuda.cg.this_grid().sync(): must be launched cooperatively (all
  // blocks resident at once, cuLaunchCooperativeKernel).
  bool cooperative = false;
  // debug=True: the exceptions its assert/raise statements report through the
  // module's `pykc_error` word (docs/compile.md), each with its nonzero code.
  struct Error {
    uint32_t code = 0;
    std::string type;
    std::string message;
    uint32_t line = 0;
  };
  std::vector<Error> errors;
  // A tile kernel (docs/TILE.md): the threads per block it must be launched
  // with (its grid is the user's); 0 for SIMT kernels.
  uint32_t tileThreads = 0;
  // A tile kernel whose shared memory exceeds 48 KiB takes it as dynamic shared
  // memory: the bytes every launch must pass (docs/ABI.md); 0 otherwise.
  uint32_t tileSharedBytes = 0;
  // A tile kernel's register budget (TileKernelShape::registerTarget): the
  // link asks ptxas for it, then for kTileRelaxedRegisters where it spills,
  // then for none; 0: none.
  uint32_t tileRegisterTarget = 0;
  // Spilled bytes the link keeps that budget with (TileKernelShape::toleratedSpillBytes).
  uint32_t tileToleratedSpillBytes = 0;
};

// The second register budget of tile kernels that spill under their first.
inline constexpr uint32_t kTileRelaxedRegisters = 40;

struct LoweredModule {
  std::unique_ptr<llvm::Module> module;
  // In the order of TypedModule::instances' kernels.
  std::vector<KernelInfo> kernels;
  // Some kernel asked for line tables (`lineinfo=True`).
  bool wantsLineInfo = false;
};

// Lowers every instance of `typed` into a new module in `context`. `typed`
// must have been checked without errors (anything else is a pykc bug and
// asserts). The module is named after the source path; `ast` must be the tree
// `typed` was checked from. Deterministic: the same input gives the same IR.
LoweredModule lowerToLlvm(const frontend::Ast& ast, const frontend::TypedModule& typed,
                          llvm::LLVMContext& context, const LoweringOptions& options);

}  // namespace lowering
