#include "driver/fatbin.h"

#include <optional>

#include "cache/store.h"
#include "driver/cache_key.h"
#include "driver/codegen.h"
#include "driver/stages.h"

namespace driver {

llvm::Expected<std::string> makeFatbin(const std::vector<ArchArtifacts>& archs,
                                       const FatbinRequest& request) {
  std::optional<cache::Key> key;
  const std::string output(findStage("fatbin")->name);
  if (request.store != nullptr && request.unitKeys.size() == archs.size()) {
    std::vector<std::string> names;
    for (const ArchArtifacts& a : archs) names.push_back(a.arch);
    key = fatbinKeyBuilder(names, request.unitKeys, request.stem, request.nvFatbinIdentity).key();
    if (auto outputs = request.store->get(*key)) {
      for (const cache::NamedOutput& o : *outputs) {
        if (o.name != output || o.bytes.empty()) continue;
        if (request.log) request.log("cache hit for fatbin " + request.stem + ".fatbin (" + key->hex() + ")");
        return o.bytes;
      }
    }
    if (request.log) request.log("cache miss for fatbin " + request.stem + ".fatbin (" + key->hex() + ")");
  }
  auto codegen = request.codegen();
  if (!codegen) return codegen.takeError();
  FatbinBuild fatbin = (*codegen)->fatbin(archs, request.stem);
  if (!fatbin.error.empty()) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", fatbin.error.c_str());
  }
  if (key) request.store->put(*key, {{output, fatbin.bytes}});
  return std::move(fatbin.bytes);
}

}  // namespace driver
