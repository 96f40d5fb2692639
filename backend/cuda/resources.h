#pragma once
// Per-kernel resource usage (registers, memory, launch limits) read back from
// a linked cubin and nvJitLink's -verbose log, and theoretical occupancy.
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace backend {

struct KernelResources {
  // Registers per thread (EIATTR_REGCOUNT; "Used N registers").
  unsigned registers = 0;
  // Static shared memory per block, without the 1 KiB the system reserves
  // per block on sm_80 and newer ("N bytes smem").
  uint64_t staticSharedBytes = 0;
  // Local memory per thread: the stack frame (EIATTR_FRAME_SIZE).
  uint64_t localBytes = 0;
  // Bytes of register spills (only nvJitLink's -verbose log reports them).
  uint64_t spillStores = 0;
  uint64_t spillLoads = 0;
  // Constant bank 0 (driver area plus parameters): `.nv.constant0.<kernel>`.
  uint64_t constBytes = 0;
  // Bytes of kernel parameters (EIATTR_CBANK_PARAM_SIZE).
  uint64_t paramBytes = 0;
  // The largest block a launch may use: 1024, lowered by `.maxntid`/`.reqntid`
  // and by the register file (64 Ki registers per block, 256 per warp unit).
  unsigned maxThreadsPerBlock = 0;
};

using ResourceMap = std::map<std::string, KernelResources>;

// The resources of every kernel entry (not device functions) in `cubin`, by
// symbol name. When `infoLog` (nvJitLink's -verbose info log from the same
// link) is given, spills come from it and its register and shared-memory
// figures take precedence. Fails if `cubin` is not a 64-bit CUDA ELF or its
// `.nv.info` records are malformed. The result does not refer to `cubin`.
llvm::Expected<ResourceMap> readCubinResources(std::string_view cubin,
                                               std::string_view infoLog = {});

// What nvJitLink's (ptxas's) -verbose log reports per kernel entry: registers,
// stack frame, spills, static shared and constant bank 0 memory (sm_90's log
// omits cmem, leaving constBytes 0). maxThreadsPerBlock is left 0. Lines it
// does not recognise are ignored; never fails.
ResourceMap parseLinkInfoLog(std::string_view infoLog);

enum class OccupancyLimiter {
  Warps,
  Blocks,
  Registers,
  SharedMemory,
};

struct Occupancy {
  unsigned blockSize = 0;
  unsigned activeBlocksPerSm = 0;
  unsigned activeWarpsPerSm = 0;
  unsigned maxWarpsPerSm = 0;
  // activeWarpsPerSm / maxWarpsPerSm, 0-1.
  double occupancy = 0;
  // What bounds activeBlocksPerSm (the first in enum order on a tie).
  OccupancyLimiter limiter = OccupancyLimiter::Warps;
};

// The theoretical occupancy of `kernel` launched with `blockSize` threads and
// `dynamicSharedBytes` on `arch`, assuming the largest shared-memory carveout.
// Fails on an unknown arch, or a block size of 0 or above the kernel's
// maxThreadsPerBlock (when set), or more shared memory than a block may have.
llvm::Expected<Occupancy> computeOccupancy(std::string_view arch,
                                           const KernelResources& kernel,
                                           unsigned blockSize,
                                           uint64_t dynamicSharedBytes = 0);

// The largest block the register file allows with `registers` per thread on
// any supported arch (all have 64 Ki registers per block): 1024 at most.
unsigned maxThreadsForRegisters(unsigned registers);

}  // namespace backend
