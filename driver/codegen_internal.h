#pragma once
// The code generator's own pieces (driver/codegen.h is its interface): one
// arch's lowering, PTX and link, and the CUDA libraries it opens. Only the
// pykc_codegen library (driver/codegen.cpp, arch_compile.cpp,
// unit_linker.cpp) includes this; what is here never runs on a cache hit.
#include <llvm/Support/Error.h>

#include <cstdint>
#include <functional>
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
#include "driver/codegen.h"
#include "driver/pipeline.h"
#include "lowering/lower.h"

namespace driver {

class ThreadBudget;

struct ArchRequest {
  backend::CodegenOptions codegen;
  // Linked beside the kernels' PTX (driver/link_inputs.h); the bytes must
  // outlive the call. LTO-IR among them turns on nvJitLink's -lto.
  std::vector<backend::LinkInput> extraInputs;
  lowering::LoweringOptions lowering;
  bool wantLlvm = false;
  bool wantLlvmOptimized = false;
  bool wantCubin = true;
  // Threads for the kernel partitions (null: the calling thread only). In no
  // cache key: the outputs are the same bytes whatever it lends.
  ThreadBudget* threads = nullptr;
  // Where register-budget guesses not taken finish (null: the link waits for them).
  backend::BackgroundLinks* background = nullptr;
};

// At most this many partitions per file: each costs a context, a target
// machine, a libdevice load and a pass pipeline (about 1 ms), so a file of
// many small kernels is split into groups rather than one part per kernel.
// A constant, never the thread count: the outputs depend on the partitions.
inline constexpr uint32_t kMaxKernelPartitions = 8;

// The kernel instances 0 .. kernelCount-1 in min(kernelCount,
// kMaxKernelPartitions) contiguous groups of near-equal size, in order.
std::vector<std::vector<uint32_t>> kernelPartitions(uint32_t kernelCount);

// Whether compileForArch splits `typed` into partitions of its kernel
// instances (docs/compile.md, "Kernel partitions"): when it has more than one
// kernel, and neither the request nor any kernel asks for line tables or
// debug information (each part's `.file` table, and debug=True's visible
// `pykc_error` word, would clash in the merged PTX). Depends only on its
// arguments, never on the threads available.
bool partitionsKernels(const frontend::TypedModule& typed, const ArchRequest& request);

// nvJitLink as compileForArch asks for it: only once the PTX is there, so that
// loading the library can overlap the front end and LLVM (UnitLinker::startLoading).
using NvJitLinkSource = std::function<llvm::Expected<const backend::NvJitLink*>()>;

// Lowers `compilation.typed` for `request.codegen.arch`, emits PTX, and links
// the cubin with the library `nvJitLink` gives (called only when wantCubin, after
// the PTX is emitted). Fails on environment problems (libdevice, nvJitLink, an
// unsupported arch).
// `kernels` receives the lowered kernels' facts. With partitionsKernels(),
// each kernel is lowered, optimised and emitted in an LLVMContext of its own
// on the threads `request.threads` lends, and the parts' PTX merged in kernel
// order (backend::mergePtx) before one nvJitLink call: the outputs are the
// same bytes with one thread or many. `llvmIr` is then the whole file
// lowered once more (one module, as without partitions); `llvmOptimizedIr`
// the parts' optimised modules one after another.
llvm::Expected<ArchArtifacts> compileForArch(const Compilation& compilation,
                                             const ArchRequest& request,
                                             const NvJitLinkSource& nvJitLink,
                                             std::vector<lowering::KernelInfo>& kernels);

// nvJitLink, NVRTC, nvFatbin and the NVPTX target, set up on first use. Thread-safe:
// the first get()/nvrtc() opens the library under a lock; each link makes its
// own nvJitLink handle, so any number of threads may link through one.
class UnitLinker {
public:
  // Empty paths: the libraries found at build time, then the loader's search.
  explicit UnitLinker(CodegenSettings settings) : settings_(std::move(settings)) {}

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
  // The NVPTX target alone (PTX without a cubin), once.
  void initializeTarget();

private:
  CodegenSettings settings_;
  std::once_flag target_;
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

}  // namespace driver
