#pragma once
// `--fatbin`: one file holding every arch's cubin and the PTX of the
// `compute_XY` arches (docs/compile.md, "Fatbins"), made by nvFatbin from a
// compile's per-arch artifacts, and stored in the kernel cache under a key of
// its own (driver/cache_key.h fatbinKeyBuilder), so that a warm compile loads
// neither nvJitLink nor nvFatbin.
#include <llvm/Support/Error.h>

#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/nvfatbin.h"
#include "cache/key.h"
#include "driver/pipeline.h"

namespace cache {
class Store;
}

namespace driver {

class UnitLinker;

// nvFatbin's pieces for `archs`, in order, their bytes viewing the
// artifacts' (which must outlive them): a cubin per `sm_XY` arch (nvFatbin's
// arch "90", "100a"), the PTX of each `compute_XY` one, each named `stem`
// (cuobjdump -lelf shows `STEM.sm_90.cubin`).
std::vector<backend::FatbinInput> fatbinInputs(const std::vector<ArchArtifacts>& archs,
                                               const std::string& stem);

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
};

// The fatbin of `archs`: the cache's entry when it has one, else nvFatbin's
// (opened through `linker`), then stored. Fails when nvFatbin cannot be
// loaded or refuses a piece. Deterministic: the same artifacts give the same
// bytes.
llvm::Expected<std::string> makeFatbin(const std::vector<ArchArtifacts>& archs,
                                       const FatbinRequest& request, UnitLinker& linker);

}  // namespace driver
