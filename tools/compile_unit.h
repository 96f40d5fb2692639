#pragma once
// One source file's cubin for one architecture, through the kernel cache
// (docs/CACHE.md, "Compile units"): the unit key, what an entry holds, and the
// compile on a miss. Shared by `pykc compile` and `pykc cache populate`.
//
// A hit needs only the front end (which the key is computed from) and the
// store: nvJitLink is loaded and LLVM's NVPTX target initialised only when
// something has to be compiled (UnitLinker).
#include <llvm/Support/Error.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backend/nvjitlink.h"
#include "backend/options.h"
#include "cache/key.h"
#include "cache/store.h"
#include "lowering/lower.h"
#include "tools/pipeline.h"

namespace spdlog {
class logger;
}

namespace tools {

// The `unit` field of every unit key: bump the number whenever the unit key's
// recipe or what an entry holds changes, so that old entries stop matching.
inline constexpr const char* kUnitKind = "file-cubin-1";

// How one file is compiled for one arch.
struct UnitRequest {
  backend::CodegenOptions codegen;
  // `-D NAME=VALUE` as given (they enter each kernel instance's key).
  std::vector<std::string> defines;
  // backend::nvJitLinkIdentity(): stands for nvJitLink's version in the key,
  // so that computing a key never loads the library.
  std::string nvJitLinkIdentity;
};

// The builder of the key of `compilation`'s cubin for `request.codegen.arch`:
// `unit` (kUnitKind), `arch`, then per kernel instance, in instance order,
// `instance` = the hex key of tools::cacheKeyBuilder for that instance, and
// `path` (the file as given) when line tables are on (`--lineinfo` or a
// kernel's `lineinfo=True`), as the PTX then names the file. `compilation`
// must have been checked without errors. Never fails.
cache::KeyBuilder unitKeyBuilder(const Compilation& compilation, const UnitRequest& request);

// What one unit entry holds, decoded.
struct UnitArtifacts {
  // ptx, cubin and resources (llvmIr empty).
  ArchArtifacts arch;
  std::vector<lowering::KernelInfo> kernels;
  // nvJitLink's version, "13.0", for the manifest.
  std::string nvJitLinkVersion;
};

// The outputs stored for a unit: `cubin`, `ptx`, `resources` (JSON),
// `kernels` (JSON), `nvjitlink`. Deterministic: equal artifacts give equal
// bytes.
std::vector<cache::NamedOutput> encodeUnit(const UnitArtifacts& unit);

// Decodes what encodeUnit stored for `arch`; nullopt (with `why`) when an
// output is missing or malformed, or its kernels are not `typed`'s kernel
// instances (a pykc bug, or a key collision: either way a miss).
std::optional<UnitArtifacts> decodeUnit(const std::vector<cache::NamedOutput>& outputs,
                                        const frontend::TypedModule& typed,
                                        const std::string& arch, std::string* why);

// nvJitLink and the NVPTX target, set up on first use. One per thread (an
// NvJitLink handle links one cubin at a time); `initializeTarget` must be
// safe to call from each (populate passes a std::call_once wrapper).
class UnitLinker {
public:
  explicit UnitLinker(std::function<void()> initializeTarget)
      : initializeTarget_(std::move(initializeTarget)) {}
  UnitLinker(const UnitLinker&) = delete;
  UnitLinker& operator=(const UnitLinker&) = delete;
  // Waits for prefetch()'s thread.
  ~UnitLinker();

  // Initialises the target on this thread, then opens nvJitLink (dlopen of
  // a 99 MB library, about 10 ms) on a second thread, so that it overlaps
  // with lowering and LLVM's optimisation; get() waits for that thread.
  // Does nothing once started. The outputs do not depend on it. (Also
  // compiling a tiny PTX there, to get nvJitLink's first-use start-up out of
  // the way, cost more CPU than it saved on a busy 2-core machine.)
  void prefetch();
  // The opened library (the target initialised first); fails as
  // NvJitLink::load or nvJitLinkVersion do. The pointer lives as long as this.
  llvm::Expected<const backend::NvJitLink*> get();
  // "13.0" once get() succeeded.
  const std::string& version() const { return version_; }

private:
  void initializeTarget();
  // Opens the library into library_ and version_, or sets loadError_.
  void load();

  std::function<void()> initializeTarget_;
  bool targetReady_ = false;
  std::thread loader_;
  std::optional<backend::NvJitLink> library_;
  std::optional<std::string> loadError_;
  std::string version_;
};

// Compiles `compilation` for `request.codegen.arch` (lowering, PTX, cubin,
// resources), loading nvJitLink through `linker`. Fails on environment
// problems (nvJitLink, libdevice, an unsupported arch).
llvm::Expected<UnitArtifacts> compileUnit(const Compilation& compilation,
                                          const UnitRequest& request, UnitLinker& linker);

// The store options for `--cache-dir DIR` (empty: $PYKC_CACHE_DIR, else
// $XDG_CACHE_HOME/pykc, else ~/.cache/pykc) with the size limit from
// $PYKC_CACHE_MAXSIZE (a malformed value is logged and the default used),
// the store's log lines forwarded to `log` (may be null). nullopt when no
// folder can be found (compiles then run without a cache).
std::optional<cache::StoreOptions> cacheStoreOptions(const std::string& cacheDir,
                                                     std::shared_ptr<spdlog::logger> log);

struct Invocation;

struct PopulateOptions {
  // Files and folders (searched recursively for *.py).
  std::vector<std::string> paths;
  std::vector<std::string> archs;
  // JSON: {"file.py": {"sigs": [...], "defines": [...]}}; empty: none.
  std::string specFile;
  // Worker threads; 0: the hardware's.
  int jobs = 0;
};

// `pykc cache populate`: every file x arch into `store`, in parallel. Prints
// the failures' diagnostics and `populate: N jobs, H hits, C compiled, F
// failed, S.SS s`. Returns the exit status: 0, 1 (source errors), 2 (bad
// arch or spec file), 3 (environment).
int runPopulate(Invocation& inv, cache::Store& store, const PopulateOptions& options);

}  // namespace tools
