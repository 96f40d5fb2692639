#pragma once
// `pykc inspect --emit resources`: per kernel x signature, what the cubin
// uses (registers, spills, stack, shared and constant memory, parameters,
// the largest block) and the theoretical occupancy that allows.
#include <string>
#include <vector>

#include "backend/cuda/resources.h"

namespace cli {

struct ResourceEntry {
  std::string kernel;
  std::string signature;
  std::string symbol;
  std::string arch;
  backend::KernelResources resources;
  // Tile kernels: the block pykc chose (the only one they launch with) and the
  // dynamic shared memory every launch passes; 0 for SIMT kernels.
  uint32_t tileBlock = 0;
  uint32_t dynamicSharedBytes = 0;
};

// Text for people: one block per entry, occupancy at each of `blockSizes`
// (a size above the kernel's limit says so instead; a tile kernel: at its own
// block, with its dynamic shared memory). Deterministic.
std::string formatResources(const std::vector<ResourceEntry>& entries,
                            const std::vector<unsigned>& blockSizes);

// The same as JSON: {"kernels": [{"name", "signature", "symbol", "arch",
// "registers", ..., "occupancy": [{"block_size", ...}]}]}.
std::string formatResourcesJson(const std::vector<ResourceEntry>& entries,
                                const std::vector<unsigned>& blockSizes);

}  // namespace cli
