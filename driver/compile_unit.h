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
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/nvfatbin.h"
#include "backend/cuda/nvjitlink.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/register_budget.h"
#include "backend/options.h"
#include "cache/key.h"
#include "cache/store.h"
#include "lowering/lower.h"
#include "driver/codegen_flags.h"
#include "driver/log.h"
#include "driver/link_inputs.h"
#include "driver/pipeline.h"

namespace driver {

class ThreadBudget;


// How one file is compiled for one arch.
struct UnitRequest {
  backend::CodegenOptions codegen;
  // `-D NAME=VALUE` as given (they enter each kernel instance's key).
  std::vector<std::string> defines;
  // backend::nvJitLinkIdentity(): stands for nvJitLink's version in the key,
  // so that computing a key never loads the library.
  std::string nvJitLinkIdentity;
  // backend::nvrtcIdentity() of the NVRTC that links `.cu` files (read only
  // when one is linked; empty: the default library's).
  std::string nvrtcIdentity;
  // libdeviceKeyField(codegen), when the caller has it (a Session reads it
  // once); empty: read here.
  std::optional<cache::KeyField> libdeviceKey;
  // Linking (--link, -I, --nvrtc-option, --lto) and the files collectLinkFiles read.
  LinkSettings link;
  std::vector<LinkFile> linkFiles;
  // Threads for the kernel partitions (ArchRequest::threads); not in the key.
  ThreadBudget* threads = nullptr;
};


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

// nvJitLink, NVRTC, nvFatbin and the NVPTX target, set up on first use. Thread-safe:
// the first get()/nvrtc() opens the library under a lock; each link makes its
// own nvJitLink handle, so any number of threads may link through one.
// `initializeTarget` must be safe to call more than once (a std::call_once
// wrapper).
class UnitLinker {
public:
  // Empty paths: the libraries found at build time, then the loader's search.
  explicit UnitLinker(std::function<void()> initializeTarget, std::string nvJitLinkPath = {},
                      std::string nvrtcPath = {}, std::string nvFatbinPath = {})
      : initializeTarget_(std::move(initializeTarget)),
        nvJitLinkPath_(std::move(nvJitLinkPath)),
        nvrtcPath_(std::move(nvrtcPath)),
        nvFatbinPath_(std::move(nvFatbinPath)) {}

  ~UnitLinker();
  UnitLinker(const UnitLinker&) = delete;
  UnitLinker& operator=(const UnitLinker&) = delete;

  // The opened library (the target initialised first); fails as
  // NvJitLink::load or nvJitLinkVersion do. The pointer lives as long as this.
  // Waits for a load startLoading began.
  llvm::Expected<const backend::NvJitLink*> get();
  // Loads nvJitLink and links an empty module for `arch` (nvJitLink's first link
  // sets up most of its own state, ~7 ms), now. false when either fails (get()
  // then reports why).
  bool warmUp(const std::string& arch);
  // warmUp(arch) on a thread of its own, once: a miss starts it before its front
  // end and LLVM run, and its link then waits only for what is left of it.
  void startLoading(const std::string& arch);
  // "13.0" once get() succeeded, "" before (waits for a load in progress).
  std::string version();
  // Register-budget guesses a compile did not take, finishing on their own.
  backend::BackgroundLinks& background() { return background_; }
  // NVRTC, opened on first use (only when a `.cu` file is linked).
  llvm::Expected<const backend::Nvrtc*> nvrtc();
  // nvFatbin, opened on first use (only when a fatbin is made and the cache
  // does not have it).
  llvm::Expected<const backend::NvFatbin*> fatbin();
  // The NVPTX target alone (PTX without a cubin).
  void initializeTarget() {
    if (initializeTarget_) initializeTarget_();
  }

private:
  std::function<void()> initializeTarget_;
  std::string nvJitLinkPath_;
  std::string nvrtcPath_;
  std::string nvFatbinPath_;
  std::mutex mutex_;
  std::optional<backend::NvJitLink> library_;
  std::optional<backend::Nvrtc> nvrtc_;
  std::optional<backend::NvFatbin> fatbin_;
  std::string version_;
  std::once_flag loading_;
  std::thread loader_;  // startLoading's, joined by the destructor
  // Declared after library_: waited for before the library closes.
  backend::BackgroundLinks background_;
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
                                                     const LogSink& log,
                                                     std::vector<cache::RemoteSpec> remotes = {});

}  // namespace driver
