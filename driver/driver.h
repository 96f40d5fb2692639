#pragma once
// The one compile orchestration (shared/DESIGN.md §2, §4b): every front door
// (`pykc compile`, `pykc cache populate`, the C API, the JIT) fills a
// CompileRequest, calls driver::compile with its Session, and renders the
// CompileResult. No CLI11, no FILE*, no logger inside: diagnostics come back
// as data and as rendered text, log lines go to the Session's LogSink.
//
//     source -> front end -> per arch: cache key -> cache -> (miss) lower,
//     PTX, nvJitLink -> store -> results -> manifest
//
// Everything up to the cache and back is here; what a miss runs (lowering to
// the cubin) is the code generator's (driver/codegen.h), asked for only when
// something has to be compiled.
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/resources.h"
#include "cache/key.h"
#include "cache/remote/remote.h"
#include "driver/codegen.h"
#include "driver/codegen_flags.h"
#include "driver/failure.h"
#include "driver/log.h"
#include "diagnostics/diagnostics.h"
#include "lowering/lower.h"

namespace cache {
class Store;
}

namespace driver {

class ThreadBudget;
struct Compilation;

// What is set up once and shared by every compile of a Session.
struct SessionSettings {
  // The kernel cache folder; empty: $PYKC_CACHE_DIR, else
  // $XDG_CACHE_HOME/pykc, else ~/.cache/pykc.
  std::string cacheDir;
  // false: no cache at all (neither read nor written).
  bool useCache = true;
  // Remote levels after the local folder (docs/CACHE.md).
  std::vector<cache::RemoteSpec> remotes;
  // Threads in all for a compile's arches and kernel partitions (and, in
  // populate, its jobs); 0: the hardware's.
  unsigned threads = 0;
  // libdevice.10.bc, libnvJitLink.so.13 and libnvrtc.so.13 (system CUDA or
  // NVIDIA's pip wheels); empty: the ones found at build time, then (for
  // the libraries) the dynamic loader's search.
  std::string libdevicePath;
  std::string nvJitLinkPath;
  std::string nvrtcPath;
  // libnvfatbin.so.13 (`--fatbin`); empty: backend::NvFatbin::load's search.
  std::string nvFatbinPath;
  // Makes the code generator (driver/codegen.h) at the Session's first miss:
  // libpykc passes makeCodegen (linked in); empty: openCodegenLibrary
  // (libpykc_codegen.so, what the `pykc` executable uses).
  CodegenFactory codegen;
  // Where log lines go (may be empty).
  LogSink log;
  // A store the caller made (`cache populate` checks its folder first);
  // used instead of making one from cacheDir and remotes. Must outlive the
  // Session.
  cache::Store* store = nullptr;
};

// Owns what compiles share: the store, the thread budget, the code generator
// (made at the first miss; it opens nvJitLink and NVRTC and initialises the
// NVPTX target on first use), and the key fields that are the same for every
// compile (the compiler's build id, nvJitLink's identity, libdevice's bytes).
// Thread-safe: any number of compiles may run in one Session at once.
class Session {
public:
  explicit Session(SessionSettings settings);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const SessionSettings& settings() const { return settings_; }
  // The store, created on first use; null without a cache (useCache false,
  // or no folder could be found: a compile then runs without one).
  cache::Store* store();
  ThreadBudget& threads() { return *threads_; }
  // The code generator, made on first use (settings().codegen); fails, and
  // fails again on every later call, when it cannot be had (its library is
  // missing or of another build). The pointer lives as long as the Session.
  llvm::Expected<Codegen*> codegen();
  // Makes the code generator on a thread of its own, once, for a compile that
  // will need it whatever the cache holds (no cache, or outputs the cache does
  // not keep), so that opening libpykc_codegen.so overlaps the front end.
  // codegen() then waits for it.
  void startCodegen();
  // backend::nvJitLinkIdentity()/nvrtcIdentity() of the libraries this
  // Session opens, computed once.
  const std::string& nvJitLinkIdentity();
  const std::string& nvrtcIdentity();
  // backend::nvFatbinIdentity() of the nvFatbin this Session opens, computed once.
  const std::string& nvFatbinIdentity();
  // The `libdevice` key field for `path` (empty: the default), read once.
  const cache::KeyField& libdeviceKey(const std::string& path);
  // Does now what a process's first compile would otherwise do on its way: opens the
  // store, reads the key fields every compile shares, makes the code generator, loads
  // nvJitLink (initialising the NVPTX target) and links an empty PTX module for `arch`
  // (nvJitLink's own first link sets up most of its state). For a JIT to call on a
  // thread of its own before its first kernel is needed; compiles may run beside it (a
  // cache hit never waits for it; a miss waits only for nvJitLink's loading, as it
  // would on its own). false (and nothing else) when the code generator cannot be had
  // or nvJitLink cannot be loaded or link: the first compile then reports why.
  bool prepare(const std::string& arch);

private:
  SessionSettings settings_;
  std::unique_ptr<ThreadBudget> threads_;
  std::mutex mutex_;
  // codegen()'s, under its own lock: making it may take a while (dlopen),
  // which must not hold up cache hits (mutex_).
  std::mutex codegenMutex_;
  bool codegenTried_ = false;
  std::unique_ptr<Codegen> codegen_;
  std::string codegenError_;
  std::once_flag codegenStarted_;
  std::thread codegenLoader_;  // startCodegen's, joined by the destructor
  bool storeTried_ = false;
  std::unique_ptr<cache::Store> store_;
  // store_, or the caller's (settings_.store); null without a cache.
  cache::Store* storePointer_ = nullptr;
  std::optional<std::string> nvJitLinkIdentity_;
  std::optional<std::string> nvrtcIdentity_;
  std::optional<std::string> nvFatbinIdentity_;
  std::map<std::string, cache::KeyField> libdeviceKeys_;
};

// The last stage a compile runs.
enum class Stage { Check, Llvm, Ptx, Cubin };

struct CompileRequest {
  // The file as named in diagnostics and the manifest (and read when
  // `source` is unset).
  std::string path;
  // The file's bytes, when the caller has them (the C API, the JIT).
  std::optional<std::string> source;
  // Folders searched for modules the file imports helpers from, before
  // codegen.pythonPath (driver/sibling_modules.h).
  std::vector<std::string> modulePath;
  // Only these kernels (by name) are built and returned; empty: all. Other
  // kernels are still type-checked (their errors fail the compile).
  std::vector<std::string> kernels;
  // Only the kernel instances with these symbols (from an earlier result's
  // instances): a unit of exactly those, whose cache key is the one a
  // request for that kernel with that one signature computes (populate
  // --per-instance fills the entries the JIT asks for). Empty: all.
  std::vector<std::string> instanceSymbols;
  // `name(types)` signatures for untyped kernels, and Constant values
  // `NAME=VALUE` of tile kernels (docs/TILE.md).
  std::vector<std::string> sigs;
  std::vector<std::string> consts;
  std::vector<std::string> archs{"sm_90"};
  // -O, fast math, -D, --link, ... (driver/codegen_flags.h).
  CodegenFlags codegen;
  bool warnFloat64 = true;
  Stage stopAfter = Stage::Cubin;
  // What to keep in the result (a Cubin stage with wantCubin false stops
  // before nvJitLink, as --emit ptx does).
  bool wantLlvm = false;
  bool wantPtx = true;
  bool wantCubin = true;
  // One fatbin of every arch's cubin and the compute_XY arches' PTX
  // (CompileResult::fatbin; driver/fatbin.h). Needs a compile to cubins.
  bool wantFatbin = false;
  // The module after optimisation (inspect --emit llvm-opt).
  bool wantLlvmOptimized = false;
  // Line tables in the PTX and cubin even without --lineinfo (inspect's
  // interleaved PTX and SASS).
  bool lineTables = false;
  // Keep the front end's outputs in the result (CompileResult::compilation).
  bool keepCompilation = false;
  // Threads for this compile's LLVM work; 0: the Session's budget.
  unsigned jobs = 0;
  // Print every instance's variables' types into the result (--dump-typed).
  bool dumpTyped = false;
  // A cache hit is also sent to read-write remotes that lack it (populate).
  bool shareHits = false;
  // A file without kernels stops after the front end (populate's skip).
  bool skipEmpty = false;
  // How diagnostics are rendered into CompileResult::rendered.
  frontend::RenderOptions render;
};

// What a request's results hold per arch, its want* flags as its stop stage
// limits them (no PTX after a stop at LLVM IR, no cubin before nvJitLink).
struct WantedOutputs {
  bool llvm = false;
  bool ptx = false;
  bool cubin = false;
};
WantedOutputs wantedOutputs(const CompileRequest& request);

struct ArchOutput {
  std::string arch;
  std::string llvmIr;
  std::string llvmOptimizedIr;
  std::string ptx;
  std::string cubin;
  backend::ResourceMap resources;
  // Tile kernels past 48 KiB of shared memory: symbol -> dynamic bytes.
  std::map<std::string, uint32_t> tileSharedBytes;
  // Served by the cache (and by which remote, when one did).
  bool cacheHit = false;
  std::string remote;
  // The cache key (hex), when the cache was used.
  std::string key;
};

// One kernel instance of the result (kernel x signature x Constants).
struct InstanceOutput {
  std::string kernel;
  std::string signature;
  std::string symbol;
  // Tile kernels (after a compile): the block pykc chose and the dynamic
  // shared memory a launch passes; 0 for SIMT kernels.
  uint32_t tileThreads = 0;
  uint32_t tileSharedBytes = 0;
};

struct CompileResult {
  ExitClass exit = ExitClass::Ok;
  // Source diagnostics (errors, warnings and notes with positions) ...
  std::vector<frontend::Diagnostic> diagnostics;
  // ... and errors without one (`pykc: error: ...`), e.g. nvJitLink's.
  std::vector<std::string> errors;
  // Both, rendered in the order they arose, as the CLI prints them.
  std::string rendered;
  std::string typedDump;
  // Per requested arch, in request order (empty after a failure).
  std::vector<ArchOutput> archs;
  std::vector<InstanceOutput> instances;
  // manifest.json (docs/ABI.md); empty when stopped before PTX.
  std::string manifest;
  // With wantFatbin: the fatbin's bytes (file outputStem(path) + ".fatbin").
  std::string fatbin;
  // nvJitLink's version ("13.0"), "none" when nothing was linked.
  std::string nvJitLinkVersion = "none";
  // Kernel instances in the file (0: it holds no kernel).
  uint32_t kernelCount = 0;
  // The front end ran without errors (later failures are the compile's).
  bool checked = false;
  // With keepCompilation: the source, tokens, tree and typed module (also
  // after source errors, as far as the front end got).
  std::shared_ptr<const Compilation> compilation;
};

// Runs `request` in `session`. Never throws; every outcome is in the result
// (its exit class says which). Output files are the caller's business:
// nothing is written but cache entries. Deterministic: equal requests give
// equal bytes whatever the threads.
CompileResult compile(const CompileRequest& request, Session& session);

// The cache key of every kernel instance of `compilation` (checked without
// errors) for `request.archs[0]` and the request's codegen flags, in instance
// order: what `inspect --emit cache-key` prints. Never loads nvJitLink.
std::vector<cache::KeyBuilder> instanceKeys(const Compilation& compilation,
                                            const CompileRequest& request, Session& session);

// The manifest's file stem for `path`: its file name without `.py`.
std::string outputStem(const std::string& path);

}  // namespace driver
