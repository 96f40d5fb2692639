#include "driver/fatbin.h"

#include <cassert>
#include <optional>

#include "cache/store.h"
#include "driver/cache_key.h"
#include "driver/compile_unit.h"
#include "driver/stages.h"
#include "support/arch.h"

namespace driver {

std::vector<backend::FatbinInput> fatbinInputs(const std::vector<ArchArtifacts>& archs,
                                               const std::string& stem) {
  std::vector<backend::FatbinInput> inputs;
  for (const ArchArtifacts& a : archs) {
    const support::ArchInfo* info = support::findArch(a.arch);
    assert(info != nullptr && "the driver checked every arch");
    backend::FatbinInput input;
    if (info->ptxOnly) {
      // nvFatbin wants the PTX's own target: compute_90's PTX says `.target sm_90`.
      input.kind = backend::FatbinInput::Kind::Ptx;
      input.arch = std::string(info->ptxTarget.substr(3));
      input.bytes = a.ptx;
      input.identifier = stem;
    } else {
      input.kind = backend::FatbinInput::Kind::Cubin;
      input.arch = std::string(info->name.substr(3));
      input.bytes = a.cubin;
      input.identifier = stem;
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

llvm::Expected<std::string> makeFatbin(const std::vector<ArchArtifacts>& archs,
                                       const FatbinRequest& request, UnitLinker& linker) {
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
  auto library = linker.fatbin();
  if (!library) return library.takeError();
  std::vector<backend::FatbinInput> inputs = fatbinInputs(archs, request.stem);
  auto fatbin = backend::buildFatbin(**library, inputs);
  if (!fatbin) return fatbin.takeError();
  if (key) request.store->put(*key, {{output, *fatbin}});
  return fatbin;
}

}  // namespace driver
