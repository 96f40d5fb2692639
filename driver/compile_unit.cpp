#include "driver/compile_unit.h"
#include "driver/stages.h"

#include <nlohmann/json.hpp>

#include <cassert>
#include <cstdlib>

#include "backend/cuda/resources.h"
#include "sema/typed_module.h"

namespace driver {
namespace {

// Reads the unsigned number `name` of `object` into `out`; false when absent
// or not an unsigned number.
template <typename T>
bool readUnsigned(const nlohmann::json& object, const char* name, T& out) {
  auto it = object.find(name);
  if (it == object.end() || !it->is_number_unsigned()) return false;
  out = it->get<T>();
  return true;
}

bool readBool(const nlohmann::json& object, const char* name, bool& out) {
  auto it = object.find(name);
  if (it == object.end() || !it->is_boolean()) return false;
  out = it->get<bool>();
  return true;
}

std::string resourcesJson(const backend::ResourceMap& resources) {
  // ResourceMap is a std::map: symbols in sorted order.
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [symbol, r] : resources) {
    j[symbol] = {{"registers", r.registers},
                 {"static_shared_bytes", r.staticSharedBytes},
                 {"local_bytes", r.localBytes},
                 {"spill_stores", r.spillStores},
                 {"spill_loads", r.spillLoads},
                 {"const_bytes", r.constBytes},
                 {"param_bytes", r.paramBytes},
                 {"max_threads_per_block", r.maxThreadsPerBlock}};
  }
  return j.dump();
}

std::optional<backend::ResourceMap> parseResources(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  backend::ResourceMap out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it->is_object()) return std::nullopt;
    backend::KernelResources r;
    bool ok = readUnsigned(*it, "registers", r.registers) &&
              readUnsigned(*it, "static_shared_bytes", r.staticSharedBytes) &&
              readUnsigned(*it, "local_bytes", r.localBytes) &&
              readUnsigned(*it, "spill_stores", r.spillStores) &&
              readUnsigned(*it, "spill_loads", r.spillLoads) &&
              readUnsigned(*it, "const_bytes", r.constBytes) &&
              readUnsigned(*it, "param_bytes", r.paramBytes) &&
              readUnsigned(*it, "max_threads_per_block", r.maxThreadsPerBlock);
    if (!ok) return std::nullopt;
    out.emplace(it.key(), r);
  }
  return out;
}

std::string kernelsJson(const std::vector<lowering::KernelInfo>& kernels) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const lowering::KernelInfo& k : kernels) {
    j.push_back({{"symbol", k.symbol},
                 {"dynamic_shared_memory", k.dynamicSharedMemory},
                 {"cooperative", k.cooperative}});
    // Only tile kernels have it: SIMT entries keep their bytes.
    if (k.tileThreads != 0) j.back()["tile_threads"] = k.tileThreads;
    if (k.tileSharedBytes != 0) j.back()["tile_shared_bytes"] = k.tileSharedBytes;
  }
  return j.dump();
}

std::optional<std::vector<lowering::KernelInfo>> parseKernels(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_array()) return std::nullopt;
  std::vector<lowering::KernelInfo> out;
  for (const nlohmann::json& k : j) {
    if (!k.is_object()) return std::nullopt;
    auto symbol = k.find("symbol");
    if (symbol == k.end() || !symbol->is_string()) return std::nullopt;
    lowering::KernelInfo info;
    info.symbol = symbol->get<std::string>();
    if (!readBool(k, "dynamic_shared_memory", info.dynamicSharedMemory) ||
        !readBool(k, "cooperative", info.cooperative)) {
      return std::nullopt;
    }
    if (auto t = k.find("tile_threads"); t != k.end()) {
      if (!t->is_number_unsigned()) return std::nullopt;
      info.tileThreads = t->get<uint32_t>();
    }
    if (auto t = k.find("tile_shared_bytes"); t != k.end()) {
      if (!t->is_number_unsigned()) return std::nullopt;
      info.tileSharedBytes = t->get<uint32_t>();
    }
    out.push_back(std::move(info));
  }
  return out;
}


}  // namespace


namespace {

// The entry's name of a stage output (driver/stages.h: the stages a unit's entry holds).
std::string stageOutput(std::string_view stage) {
  const StageInfo* info = findStage(stage);
  assert(info != nullptr && info->cacheOutput && "a stage the cache entry holds");
  return std::string(info->name);
}

}  // namespace

std::vector<cache::NamedOutput> encodeUnit(const UnitArtifacts& unit) {
  return {
      {stageOutput("cubin"), unit.arch.cubin},
      {stageOutput("ptx"), unit.arch.ptx},
      {stageOutput("resources"), resourcesJson(unit.arch.resources)},
      {"kernels", kernelsJson(unit.kernels)},
      {"nvjitlink", unit.nvJitLinkVersion},
  };
}

std::optional<UnitArtifacts> decodeUnit(const std::vector<cache::NamedOutput>& outputs,
                                        const frontend::TypedModule& typed,
                                        const std::string& arch, std::string* why) {
  auto find = [&](const std::string& name) -> const std::string* {
    for (const cache::NamedOutput& o : outputs) {
      if (o.name == name) return &o.bytes;
    }
    return nullptr;
  };
  const std::string* cubin = find(stageOutput("cubin"));
  const std::string* ptx = find(stageOutput("ptx"));
  const std::string* resources = find(stageOutput("resources"));
  const std::string* kernels = find("kernels");
  const std::string* version = find("nvjitlink");
  if (!cubin || !ptx || !resources || !kernels || !version) {
    *why = "the entry lacks an output";
    return std::nullopt;
  }
  UnitArtifacts unit;
  unit.arch.arch = arch;
  unit.arch.cubin = *cubin;
  unit.arch.ptx = *ptx;
  unit.nvJitLinkVersion = *version;
  auto parsedResources = parseResources(*resources);
  auto parsedKernels = parseKernels(*kernels);
  if (!parsedResources || !parsedKernels) {
    *why = "malformed `resources` or `kernels`";
    return std::nullopt;
  }
  unit.arch.resources = std::move(*parsedResources);
  unit.kernels = std::move(*parsedKernels);
  bool match = unit.kernels.size() == typed.kernelCount;
  for (uint32_t k = 0; match && k < typed.kernelCount; ++k) {
    match = unit.kernels[k].symbol == typed.instances[k].symbol;
  }
  if (!match) {
    *why = "its kernels are not this file's";
    return std::nullopt;
  }
  return unit;
}

std::optional<cache::StoreOptions> cacheStoreOptions(const std::string& cacheDir,
                                                     const LogSink& log,
                                                     std::vector<cache::RemoteSpec> remotes) {
  auto env = [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
  std::optional<std::string> dir = cacheDir.empty() ? cache::resolveCacheDir(env)
                                                     : std::optional<std::string>(cacheDir);
  if (!dir) return std::nullopt;
  cache::StoreOptions options;
  options.root = *dir;
  options.remotes = std::move(remotes);
  if (std::optional<std::string> size = env("PYKC_CACHE_MAXSIZE"); size && !size->empty()) {
    if (std::optional<std::uint64_t> parsed = cache::parseSize(*size)) {
      options.maxSize = *parsed;
    } else if (log) {
      log(LogLevel::Warning, "PYKC_CACHE_MAXSIZE: `" + *size + "` is not a size; using " +
                                 cache::formatSize(cache::kDefaultMaxSize));
    }
  }
  options.log = [log](cache::LogLevel level, std::string_view message) {
    if (!log) return;
    // A cache fault never fails a compile, so it is not worth a warning
    // either: `-v` shows it. Store messages start with `cache: ` already.
    log(level == cache::LogLevel::Debug ? LogLevel::Debug : LogLevel::Info, message);
  };
  return options;
}

}  // namespace driver
