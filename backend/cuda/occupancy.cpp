// Launch limits from a kernel's resources (backend/cuda/resources.h): the
// largest block its registers allow and its theoretical occupancy. Apart from
// resources.cpp's cubin reading, so that `pykc inspect` on a cache hit needs
// no LLVM object-file code.
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>

#include <algorithm>
#include <array>
#include <climits>

#include "backend/cuda/resources.h"
#include "support/arch.h"

namespace backend {
namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr unsigned kRegistersPerBlock = 65536;
constexpr unsigned kRegisterAllocationUnit = 256;
// Register file quarters, each allocating its own warps (sm_70 and newer).
constexpr unsigned kSubPartitions = 4;

llvm::Error makeError(const llvm::Twine& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

unsigned roundUp(unsigned value, unsigned unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

unsigned maxThreadsForRegisters(unsigned registers) {
  if (registers == 0) {
    return kMaxThreadsPerBlock;
  }
  unsigned perWarp = roundUp(registers * kWarpSize, kRegisterAllocationUnit);
  unsigned warps = (kRegistersPerBlock / kSubPartitions / perWarp) * kSubPartitions;
  return std::min(kMaxThreadsPerBlock, warps * kWarpSize);
}

llvm::Expected<Occupancy> computeOccupancy(std::string_view arch,
                                           const KernelResources& kernel,
                                           unsigned blockSize,
                                           uint64_t dynamicSharedBytes) {
  const support::ArchInfo* limits = support::findArch(arch);
  if (limits == nullptr) {
    return makeError("no occupancy table for `" + llvm::StringRef(arch.data(), arch.size()) +
                     "` (known: " + support::knownArchList() + ")");
  }
  unsigned kernelLimit =
      kernel.maxThreadsPerBlock != 0 ? kernel.maxThreadsPerBlock : kMaxThreadsPerBlock;
  if (blockSize == 0 || blockSize > kernelLimit) {
    return makeError("block size " + llvm::Twine(blockSize) + " is not 1-" +
                     llvm::Twine(kernelLimit) + " for this kernel");
  }
  uint64_t shared = kernel.staticSharedBytes + dynamicSharedBytes;
  if (shared > limits->maxSharedBytesPerBlock) {
    return makeError(llvm::Twine(shared) + " bytes of shared memory per block exceed " + arch +
                     "'s " + llvm::Twine(limits->maxSharedBytesPerBlock));
  }
  unsigned maxWarps = limits->maxThreadsPerSm / kWarpSize;
  unsigned warpsPerBlock = (blockSize + kWarpSize - 1) / kWarpSize;

  std::array<unsigned, 4> bounds{};
  bounds[static_cast<size_t>(OccupancyLimiter::Warps)] = maxWarps / warpsPerBlock;
  bounds[static_cast<size_t>(OccupancyLimiter::Blocks)] = limits->maxBlocksPerSm;
  unsigned byRegisters = UINT_MAX;
  if (kernel.registers != 0) {
    unsigned perWarp = roundUp(kernel.registers * kWarpSize, limits->registerAllocationUnit);
    if (perWarp * warpsPerBlock > limits->registersPerBlock) {
      byRegisters = 0;
    } else {
      unsigned warps =
          (limits->registersPerSm / kSubPartitions / perWarp) * kSubPartitions;
      byRegisters = warps / warpsPerBlock;
    }
  }
  bounds[static_cast<size_t>(OccupancyLimiter::Registers)] = byRegisters;
  uint64_t perBlock = shared + limits->reservedSharedBytesPerBlock;
  perBlock = (perBlock + limits->sharedAllocationUnit - 1) / limits->sharedAllocationUnit *
             limits->sharedAllocationUnit;
  bounds[static_cast<size_t>(OccupancyLimiter::SharedMemory)] =
      perBlock == 0 ? UINT_MAX : static_cast<unsigned>(limits->sharedBytesPerSm / perBlock);

  auto smallest = std::min_element(bounds.begin(), bounds.end());
  Occupancy result;
  result.blockSize = blockSize;
  result.activeBlocksPerSm = *smallest;
  result.activeWarpsPerSm = result.activeBlocksPerSm * warpsPerBlock;
  result.maxWarpsPerSm = maxWarps;
  result.occupancy = static_cast<double>(result.activeWarpsPerSm) / maxWarps;
  result.limiter = static_cast<OccupancyLimiter>(smallest - bounds.begin());
  return result;
}

}  // namespace backend
