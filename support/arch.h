#pragma once
// What pykc knows about each GPU architecture it compiles for, in one table:
// every fact that depends on the target (the SM number, Hopper's
// architecture-specific features, float64 rate, occupancy limits, shared
// memory per block) comes from here. The driver rejects unknown arches at the
// edge (driver/codegen_flags.cpp); phases below look their facts up here by
// name and never parse the name themselves.
#include <span>
#include <string>
#include <string_view>

namespace support {

struct ArchInfo {
  std::string_view name;  // "sm_90a"
  unsigned sm = 0;        // 90
  // The architecture-specific variant ("a": sm_90a's wgmma, setmaxnreg).
  bool archSpecific = false;
  // float64 at half the float32 rate (data-centre parts); GeForce-class and
  // Orin parts run it at 1/32-1/64.
  bool fullRateFloat64 = false;
  // CUDA C Programming Guide, "Compute Capabilities", and the occupancy
  // calculator.
  unsigned maxThreadsPerSm = 0;
  unsigned maxBlocksPerSm = 0;
  unsigned registersPerSm = 0;
  unsigned registersPerBlock = 0;
  unsigned registerAllocationUnit = 0;  // per warp
  unsigned maxRegistersPerThread = 0;
  unsigned sharedBytesPerSm = 0;        // the largest carveout
  unsigned maxSharedBytesPerBlock = 0;  // the opt-in limit (cudaFuncSetAttribute)
  unsigned sharedAllocationUnit = 0;
  unsigned reservedSharedBytesPerBlock = 0;
};

// The architectures pykc compiles for: what LLVM 19's NVPTX back end and
// CUDA 13 (sm_75 and newer) both support, oldest first.
std::span<const ArchInfo> knownArchs();

// `name`'s row, or nullptr when pykc does not know it.
const ArchInfo* findArch(std::string_view name);

// "sm_75, sm_80, ..., sm_90a", for messages.
std::string knownArchList();

}  // namespace support
