#include "cli/inspect_resources.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace cli {
namespace {

const char* limiterName(backend::OccupancyLimiter l) {
  switch (l) {
    case backend::OccupancyLimiter::Warps:
      return "warps per SM";
    case backend::OccupancyLimiter::Blocks:
      return "blocks per SM";
    case backend::OccupancyLimiter::Registers:
      return "registers";
    case backend::OccupancyLimiter::SharedMemory:
      return "shared memory";
  }
  return "?";
}

const char* limiterKey(backend::OccupancyLimiter l) {
  switch (l) {
    case backend::OccupancyLimiter::Warps:
      return "warps";
    case backend::OccupancyLimiter::Blocks:
      return "blocks";
    case backend::OccupancyLimiter::Registers:
      return "registers";
    case backend::OccupancyLimiter::SharedMemory:
      return "shared_memory";
  }
  return "?";
}

}  // namespace

namespace {

// The block sizes to report: a tile kernel's own, else the ones asked for.
std::vector<unsigned> occupancyBlocks(const ResourceEntry& e, const std::vector<unsigned>& blockSizes) {
  if (e.tileBlock != 0) return {e.tileBlock};
  return blockSizes;
}

// The resources occupancy counts: shared memory includes the dynamic part.
backend::KernelResources withDynamicShared(const ResourceEntry& e) {
  backend::KernelResources r = e.resources;
  r.staticSharedBytes += e.dynamicSharedBytes;
  return r;
}

}  // namespace

std::string formatResources(const std::vector<ResourceEntry>& entries,
                            const std::vector<unsigned>& blockSizes) {
  std::string out;
  bool first = true;
  for (const ResourceEntry& e : entries) {
    const backend::KernelResources& r = e.resources;
    if (!first) out += "\n";
    first = false;
    out += e.kernel + " " + e.signature + " on " + e.arch + "\n";
    auto row = [&](const char* label, const std::string& value) {
      out += fmt::format("  {:<19} {}\n", label, value);
    };
    row("symbol", e.symbol);
    row("registers", std::to_string(r.registers) + " per thread");
    row("spills", std::to_string(r.spillStores) + " bytes stored, " +
                      std::to_string(r.spillLoads) + " bytes loaded");
    row("stack frame", std::to_string(r.localBytes) + " bytes per thread");
    row("static shared", std::to_string(r.staticSharedBytes) + " bytes per block");
    row("constant memory", std::to_string(r.constBytes) + " bytes (bank 0: launch area and parameters)");
    row("parameters", std::to_string(r.paramBytes) + " bytes");
    row("max threads/block", std::to_string(r.maxThreadsPerBlock));
    if (e.tileBlock != 0) {
      row("tile block", std::to_string(e.tileBlock) + " threads (pykc's choice: every launch uses it)");
      row("dynamic shared", std::to_string(e.dynamicSharedBytes) + " bytes per block (passed at launch)");
    }
    bool firstBlock = true;
    for (unsigned block : occupancyBlocks(e, blockSizes)) {
      std::string value;
      auto occ = backend::computeOccupancy(e.arch, withDynamicShared(e), block);
      if (!occ) {
        value = fmt::format("block {:>4}: n/a ({})", block, llvm::toString(occ.takeError()));
      } else {
        value = fmt::format("block {:>4}: {:>3.0f}% ({} of {} warps/SM, {} blocks/SM; limited by {})",
                            block, occ->occupancy * 100.0, occ->activeWarpsPerSm,
                            occ->maxWarpsPerSm, occ->activeBlocksPerSm, limiterName(occ->limiter));
      }
      row(firstBlock ? "occupancy" : "", value);
      firstBlock = false;
    }
  }
  return out;
}

std::string formatResourcesJson(const std::vector<ResourceEntry>& entries,
                                const std::vector<unsigned>& blockSizes) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ResourceEntry& e : entries) {
    const backend::KernelResources& r = e.resources;
    nlohmann::ordered_json k;
    k["name"] = e.kernel;
    k["signature"] = e.signature;
    k["symbol"] = e.symbol;
    k["arch"] = e.arch;
    k["registers"] = r.registers;
    k["spill_stores"] = r.spillStores;
    k["spill_loads"] = r.spillLoads;
    k["stack_bytes"] = r.localBytes;
    k["static_shared_bytes"] = r.staticSharedBytes;
    k["const_bytes"] = r.constBytes;
    k["param_bytes"] = r.paramBytes;
    k["max_threads_per_block"] = r.maxThreadsPerBlock;
    if (e.tileBlock != 0) {
      k["tile_block"] = e.tileBlock;
      k["dynamic_shared_bytes"] = e.dynamicSharedBytes;
    }
    nlohmann::ordered_json occupancy = nlohmann::ordered_json::array();
    for (unsigned block : occupancyBlocks(e, blockSizes)) {
      nlohmann::ordered_json o;
      o["block_size"] = block;
      auto occ = backend::computeOccupancy(e.arch, withDynamicShared(e), block);
      if (!occ) {
        o["error"] = llvm::toString(occ.takeError());
      } else {
        o["active_blocks_per_sm"] = occ->activeBlocksPerSm;
        o["active_warps_per_sm"] = occ->activeWarpsPerSm;
        o["max_warps_per_sm"] = occ->maxWarpsPerSm;
        // Rounded so the text is stable across libm versions.
        o["occupancy"] = static_cast<double>(static_cast<long>(occ->occupancy * 10000 + 0.5)) / 10000;
        o["limiter"] = limiterKey(occ->limiter);
      }
      occupancy.push_back(o);
    }
    k["occupancy"] = occupancy;
    list.push_back(k);
  }
  nlohmann::ordered_json root;
  root["kernels"] = list;
  return root.dump(2) + "\n";
}

}  // namespace cli
