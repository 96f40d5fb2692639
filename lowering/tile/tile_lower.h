#pragma once
// Lowering of cuTile tile kernels (docs/TILE.md): one CTA per block id, the
// elements of each tile distributed over the CTA's threads (consecutive
// threads own consecutive elements of the fastest axis), reductions and
// broadcasts across threads through warp shuffles and shared memory.
#include <cstdint>

namespace llvm {
class Function;
}  // namespace llvm

namespace frontend {
class Ast;
struct FunctionInstance;
struct TypedModule;
}  // namespace frontend

namespace lowering {

// Emits the body of the tile kernel `inst` into `function` (declared with
// the ABI parameters of docs/ABI.md). Returns the threads per block the
// kernel must be launched with and its dynamic shared memory. `inst` must have
// been checked without errors.
struct TileTarget {
  // Hopper's warpgroup MMA (sm_90a).
  bool wgmma = false;
  // The most shared memory one block may have (dynamic shared memory past 48 KiB).
  uint32_t maxSharedBytes = 48 * 1024;
  // `cvt.rn.tf32.f32` (sm_90 and later): tfloat32 rounding in one instruction.
  bool cvtRnTf32 = false;
  // `griddepcontrol` (sm_90 and later): programmatic dependent launch.
  bool gridDependency = false;
};

struct TileKernelShape {
  uint32_t threads = 0;
  // Dynamic shared memory a launch must pass (0: all of it is static).
  uint32_t dynamicSharedBytes = 0;
  // Registers per thread ptxas is asked to fit (more CTAs per SM: a kernel
  // whose CTA holds one row keeps more bytes in flight), as `.minnctapersm`
  // that the link drops where it would spill (driver/pipeline.cpp,
  // docs/TILE.md "Register budget"); 0: none.
  uint32_t registerTarget = 0;
  // Spilled bytes the budget is kept with (the link drops it for more): two CTAs of a
  // tensor-core product are worth a few registers spilled outside its main loop.
  uint32_t toleratedSpillBytes = 0;
};

TileKernelShape lowerTileKernel(const frontend::Ast& ast, const frontend::TypedModule& typed,
                                const frontend::FunctionInstance& inst, llvm::Function* function,
                                const TileTarget& target = {});

}  // namespace lowering
