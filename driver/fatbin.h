#pragma once
// `--fatbin`: one file holding every arch's cubin and the PTX of the
// `compute_XY` arches (docs/compile.md, "Fatbins"), made by nvFatbin (through
// the code generator, driver/codegen.h) from a compile's per-arch artifacts,
// and stored in the kernel cache under a key of its own (driver/cache_key.h
// fatbinKeyBuilder), so that a warm compile loads neither the code generator
// nor nvJitLink nor nvFatbin.
#include <llvm/Support/Error.h>

#include <functional>
#include <string>
#include <vector>

#include "cache/key.h"
#include "driver/pipeline.h"

namespace cache {
class Store;
}

namespace driver {

class Codegen;

struct FatbinRequest {
  // The output files' stem (the pieces' names).
  std::string stem;
  // The cache and the unit key of each arch (same order as the artifacts);
  // no store: made without the cache.
  cache::Store* store = nullptr;
  std::vector<cache::Key> unitKeys;
  // backend::nvFatbinIdentity() of the library the linker opens.
  std::string nvFatbinIdentity;
  // Hit or miss, for -v.
  std::function<void(const std::string&)> log;
  // The code generator that makes the fatbin, asked for only when the cache
  // does not have it.
  std::function<llvm::Expected<Codegen*>()> codegen;
};

// The fatbin of `archs`: the cache's entry when it has one, else the code
// generator's (Codegen::fatbin), then stored. Fails when the code generator
// cannot be had, or nvFatbin cannot be loaded or refuses a piece.
// Deterministic: the same artifacts give the same bytes.
llvm::Expected<std::string> makeFatbin(const std::vector<ArchArtifacts>& archs,
                                       const FatbinRequest& request);

}  // namespace driver
