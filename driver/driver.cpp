#include "driver/driver.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <thread>

#include "backend/cuda/nvfatbin.h"
#include "backend/cuda/nvjitlink.h"
#include "backend/cuda/nvrtc.h"
#include "cache/store.h"
#include "driver/cache_key.h"
#include "driver/compile_unit.h"
#include "driver/fatbin.h"
#include "driver/stages.h"
#include "driver/link_inputs.h"
#include "driver/pipeline.h"
#include "driver/thread_budget.h"
#include "sema/nested_kernels.h"
#include "sema/simt/check.h"
#include "support/arch.h"

#ifndef PYKC_VERSION
#error "PYKC_VERSION must be defined by driver/CMakeLists.txt"
#endif

namespace driver {

Session::Session(SessionSettings settings) : settings_(std::move(settings)) {
  unsigned threads = settings_.threads > 0 ? settings_.threads
                                           : std::max(1u, std::thread::hardware_concurrency());
  threads_ = std::make_unique<ThreadBudget>(threads);
}

Session::~Session() {
  if (codegenLoader_.joinable()) codegenLoader_.join();
}

void Session::startCodegen() {
  std::call_once(codegenStarted_, [this] {
    try {
      codegenLoader_ = std::thread([this] {
        auto made = codegen();
        // A failure is reported by the compile that asks for it.
        if (!made) llvm::consumeError(made.takeError());
      });
    } catch (const std::system_error&) {
      // No thread to be had: the first miss makes it itself.
    }
  });
}

cache::Store* Session::store() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!storeTried_) {
    storeTried_ = true;
    if (settings_.store != nullptr) {
      storePointer_ = settings_.store;
    } else if (settings_.useCache) {
      if (auto options = cacheStoreOptions(settings_.cacheDir, settings_.log, settings_.remotes)) {
        store_ = std::make_unique<cache::Store>(std::move(*options));
        storePointer_ = store_.get();
      } else if (settings_.log) {
        settings_.log(LogLevel::Info,
                      "no cache folder (set PYKC_CACHE_DIR or HOME): compiling without a cache");
      }
    }
  }
  return storePointer_;
}

bool Session::prepare(const std::string& arch) {
  // An arch pykc does not know: nothing to prepare (nvJitLink crashes on some names).
  if (support::findArch(arch) == nullptr) return false;
  store();
  nvJitLinkIdentity();
  libdeviceKey("");
  auto made = codegen();
  if (!made) {
    llvm::consumeError(made.takeError());
    return false;
  }
  return (*made)->prepare(arch);
}

llvm::Expected<Codegen*> Session::codegen() {
  std::lock_guard<std::mutex> lock(codegenMutex_);
  if (!codegenTried_) {
    codegenTried_ = true;
    CodegenSettings codegenSettings;
    codegenSettings.nvJitLinkPath = settings_.nvJitLinkPath;
    codegenSettings.nvrtcPath = settings_.nvrtcPath;
    codegenSettings.nvFatbinPath = settings_.nvFatbinPath;
    auto made = settings_.codegen ? settings_.codegen(codegenSettings) : openCodegenLibrary(codegenSettings);
    if (made) {
      codegen_ = std::move(*made);
    } else {
      codegenError_ = llvm::toString(made.takeError());
    }
  }
  if (!codegen_) return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", codegenError_.c_str());
  return codegen_.get();
}

const std::string& Session::nvJitLinkIdentity() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!nvJitLinkIdentity_) nvJitLinkIdentity_ = backend::nvJitLinkIdentity(settings_.nvJitLinkPath);
  return *nvJitLinkIdentity_;
}

const std::string& Session::nvrtcIdentity() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!nvrtcIdentity_) nvrtcIdentity_ = backend::nvrtcIdentity(settings_.nvrtcPath);
  return *nvrtcIdentity_;
}

const std::string& Session::nvFatbinIdentity() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!nvFatbinIdentity_) nvFatbinIdentity_ = backend::nvFatbinIdentity(settings_.nvFatbinPath);
  return *nvFatbinIdentity_;
}

const cache::KeyField& Session::libdeviceKey(const std::string& path) {
  cache::Store* cacheStore = store();  // takes mutex_ itself: before the lock below
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = libdeviceKeys_.find(path);
  if (it == libdeviceKeys_.end()) {
    backend::CodegenOptions codegen;
    codegen.libdevicePath = path;
    it = libdeviceKeys_
             .emplace(path, cacheStore != nullptr
                                ? libdeviceKeyFieldMemo(codegen, cacheStore->root() + "/libdevice.memo")
                                : libdeviceKeyField(codegen))
             .first;
  }
  return it->second;
}

WantedOutputs wantedOutputs(const CompileRequest& request) {
  WantedOutputs out;
  out.llvm = request.wantLlvm || request.stopAfter == Stage::Llvm;
  out.cubin = (request.wantCubin || request.wantFatbin) && request.stopAfter == Stage::Cubin;
  out.ptx = (request.wantPtx || request.stopAfter == Stage::Ptx) && request.stopAfter != Stage::Llvm;
  return out;
}

namespace {

// The back end's options for `request` in `session`: its flags, the
// Session's libdevice, and line tables when the request wants them (the
// caller sets the arch).
backend::CodegenOptions codegenFor(const CompileRequest& request, const Session& session) {
  backend::CodegenOptions codegen = codegenOptions(request.codegen);
  if (!session.settings().libdevicePath.empty()) codegen.libdevicePath = session.settings().libdevicePath;
  codegen.lineInfo = codegen.lineInfo || request.lineTables;
  return codegen;
}

}  // namespace

std::vector<cache::KeyBuilder> instanceKeys(const Compilation& compilation,
                                            const CompileRequest& request, Session& session) {
  CacheKeyOptions options;
  options.codegen = codegenFor(request, session);
  options.codegen.arch = request.archs.empty() ? "sm_90" : request.archs[0];
  options.defines = request.codegen.defines;
  options.nvJitLinkVersion = session.nvJitLinkIdentity();
  options.libdevice = session.libdeviceKey(options.codegen.libdevicePath);
  std::vector<cache::KeyBuilder> keys;
  for (uint32_t i = 0; i < compilation.typed->kernelCount; ++i) {
    keys.push_back(cacheKeyBuilder(compilation, i, options));
  }
  return keys;
}

std::string outputStem(const std::string& path) {
  llvm::SmallString<256> stem(llvm::sys::path::filename(path));
  if (llvm::sys::path::extension(stem) == ".py") llvm::sys::path::replace_extension(stem, "");
  return std::string(stem);
}

namespace {

// Builds a result as the compile goes: diagnostics and errors in order.
class Outcome {
public:
  explicit Outcome(const CompileRequest& request) : render_(request.render) {}

  void diagnostics(const frontend::DiagnosticSink& diags) {
    for (const frontend::Diagnostic& d : diags.diagnostics()) add(d);
  }
  void add(const frontend::Diagnostic& d) {
    result.diagnostics.push_back(d);
    result.rendered += frontend::renderDiagnostic(d, render_);
  }
  // `pykc: error: message`.
  void error(const std::string& message) {
    result.errors.push_back(message);
    result.rendered += "pykc: error: " + message + "\n";
  }
  CompileResult finish(ExitClass exit) {
    result.exit = exit;
    if (exit != ExitClass::Ok) {
      result.archs.clear();
      result.manifest.clear();
    }
    return std::move(result);
  }
  // The exit class of `failure`, its diagnostics and messages added.
  ExitClass fail(const Failure& failure) {
    for (const frontend::Diagnostic& d : failure.diagnostics) add(d);
    for (const std::string& message : failure.errors) error(message);
    return failure.exit;
  }
  // The same for an error of this side of the code generator (driver/failure.h).
  ExitClass fail(llvm::Error error) { return fail(failureOf(std::move(error))); }

  CompileResult result;

private:
  frontend::RenderOptions render_;
};

void recordTileShared(const std::vector<lowering::KernelInfo>& kernels, ArchArtifacts& arch) {
  for (const lowering::KernelInfo& k : kernels) {
    if (k.tileSharedBytes != 0) arch.tileSharedBytes[k.symbol] = k.tileSharedBytes;
  }
}

void log(Session& session, LogLevel level, const std::string& line) {
  if (session.settings().log) session.settings().log(level, line);
}

}  // namespace

CompileResult compile(const CompileRequest& request, Session& session) {
  Outcome outcome(request);
  CompileResult& result = outcome.result;
  // The request's own mistakes first.
  std::vector<std::string> archs;
  if (std::optional<std::string> why = uniqueArchs(request.archs, archs)) {
    outcome.error(*why);
    return outcome.finish(ExitClass::Usage);
  }
  if (std::optional<std::string> why = checkCodegenFlags(request.codegen)) {
    outcome.error(*why);
    return outcome.finish(ExitClass::Usage);
  }
  if (request.wantFatbin && request.stopAfter != Stage::Cubin) {
    outcome.error("--fatbin: a fatbin holds cubins, and this compile stops before them (--phase)");
    return outcome.finish(ExitClass::Usage);
  }
  const WantedOutputs wanted = wantedOutputs(request);
  const bool wantLlvm = wanted.llvm, wantPtx = wanted.ptx, wantCubin = wanted.cubin;
  // Only a full compile goes through the cache (docs/CACHE.md): its entry
  // holds exactly the cubin, PTX and manifest facts of one file and arch.
  const bool cacheable = wantCubin && !wantLlvm && !request.wantLlvmOptimized;
  // A compile past the front end that the cache cannot serve needs the code
  // generator whatever the cache holds: it loads meanwhile.
  const bool noCache = !session.settings().useCache && session.settings().store == nullptr;
  if (request.stopAfter != Stage::Check && (!cacheable || noCache)) session.startCodegen();

  // The front end.
  frontend::DiagnosticSink diags;
  auto owned = std::make_shared<Compilation>();
  Compilation& compilation = *owned;
  if (request.keepCompilation) result.compilation = owned;
  FrontendOptions frontendOptions;
  frontendOptions.sigs = request.sigs;
  frontendOptions.defines = request.codegen.defines;
  frontendOptions.warnFloat64 = request.warnFloat64;
  // A kernel made inside a function goes by its qualified name (`test.kernel`;
  // Python's `test.<locals>.kernel` too).
  for (const std::string& k : request.kernels) frontendOptions.kernels.push_back(frontend::normalizeQualname(k));
  frontendOptions.modulePath = request.modulePath;
  frontendOptions.modulePath.insert(frontendOptions.modulePath.end(), request.codegen.pythonPath.begin(),
                                    request.codegen.pythonPath.end());
  // A request for some kernels: its unqualified Constant values are theirs
  // alone (KERNEL.NAME=VALUE), not every kernel's with a parameter NAME.
  for (const std::string& c : request.consts) {
    size_t eq = c.find('=');
    bool qualified = c.substr(0, eq).find('.') != std::string::npos;
    if (request.kernels.empty() || qualified) {
      frontendOptions.consts.push_back(c);
    } else {
      for (const std::string& k : frontendOptions.kernels) frontendOptions.consts.push_back(k + "." + c);
    }
  }
  const std::string* bytes = request.source ? &*request.source : nullptr;
  if (llvm::Error error = runFrontend(request.path, frontendOptions, compilation, diags, bytes)) {
    outcome.diagnostics(diags);
    return outcome.finish(outcome.fail(std::move(error)));
  }
  outcome.diagnostics(diags);
  if (diags.hasErrors() || !compilation.typed) return outcome.finish(ExitClass::SourceErrors);
  for (const std::string& name : frontendOptions.kernels) {
    bool known = false, device = false;
    std::vector<std::string> seen;
    std::string names;
    for (const frontend::JitFunction& fn : compilation.typed->module.functions) {
      known = known || (fn.name == name && !fn.device);
      device = device || (fn.name == name && fn.device && !fn.tileHelper);
      if (fn.device || std::find(seen.begin(), seen.end(), fn.name) != seen.end()) continue;
      seen.push_back(fn.name);
      names += (names.empty() ? "" : ", ") + fn.name;
    }
    if (!known) {
      outcome.error("`" + name + "` is " + (device ? "a device function, not a kernel" : "not a kernel") +
                    " of `" + request.path + "`; its kernels: " + (names.empty() ? "none" : names));
      return outcome.finish(ExitClass::Usage);
    }
  }
  if (!request.instanceSymbols.empty()) {
    const frontend::TypedModule& all = *compilation.typed;
    std::vector<uint32_t> chosen;
    for (const std::string& symbol : request.instanceSymbols) {
      uint32_t k = 0;
      while (k < all.kernelCount && all.instances[k].symbol != symbol) ++k;
      if (k == all.kernelCount) {
        outcome.error("no kernel instance `" + symbol + "` in " + request.path);
        return outcome.finish(ExitClass::Usage);
      }
      if (std::find(chosen.begin(), chosen.end(), k) == chosen.end()) chosen.push_back(k);
    }
    std::sort(chosen.begin(), chosen.end());
    frontend::TypedModule selected = selectInstances(all, chosen);
    compilation.typed.emplace(std::move(selected));
  }
  const frontend::TypedModule& typed = *compilation.typed;
  result.kernelCount = typed.kernelCount;
  result.checked = true;
  if (request.skipEmpty && typed.kernelCount == 0) return outcome.finish(ExitClass::Ok);
  if (typed.kernelCount == 0 && request.stopAfter != Stage::Check) {
    // Nothing to build: say so rather than write a cubin without a kernel, and
    // name the kernels defined inside functions (which only the JIT can build).
    std::vector<frontend::NestedKernel> nested = frontend::findNestedKernels(*compilation.ast);
    if (!nested.empty()) {
      const frontend::NestedKernel& k = nested.front();
      size_t others = nested.size() - 1;
      std::string more = others == 0 ? ""
                         : " (and " + std::to_string(others) + " more kernel" + (others == 1 ? "" : "s") +
                               " defined inside functions)";
      diags.error(frontend::locationOf(*compilation.ast, k.range), frontend::Diag::NestedKernel,
                  "kernel `" + k.name + "` is defined inside `" + k.enclosing +
                      "`" + more + ": name it to compile it ahead of time (`--kernel " + k.qualname +
                      "` with its `--sig`, and `-D NAME=VALUE` for the values it takes from `" + k.enclosing +
                      "`), or run the program under the JIT (`python -m pykc run PROGRAM`), which compiles a "
                      "kernel made inside a function at its first launch");
      outcome.add(diags.diagnostics().back());
      return outcome.finish(ExitClass::SourceErrors);
    }
    std::vector<std::string> device;
    for (const frontend::JitFunction& f : typed.module.functions) {
      if (f.device) device.push_back(f.name);
    }
    if (!device.empty()) {
      // A module of device functions (a library that kernels elsewhere import).
      std::string n = std::to_string(device.size());
      outcome.error("no kernels in `" + request.path + "`: it defines " + n + " device function" +
                    (device.size() == 1 ? "" : "s") + " (`" + device.front() +
                    "`...) and no kernel; pykc compiles a device function where a kernel calls it: "
                    "compile the file whose kernels import it (`from " + outputStem(request.path) + " import " +
                    device.front() + "`, with `--python-path` for its folder)");
      return outcome.finish(ExitClass::SourceErrors);
    }
    outcome.error("no kernels in `" + request.path +
                  "`: pykc compiles functions decorated with `@cuda.jit` (numba.cuda) or `@ct.kernel` (cuda.tile)");
    return outcome.finish(ExitClass::SourceErrors);
  }
  for (uint32_t k = 0; k < typed.kernelCount; ++k) {
    const frontend::FunctionInstance& inst = typed.instances[k];
    result.instances.push_back(
        InstanceOutput{typed.module.functions[inst.function].name, inst.signature, inst.symbol});
  }
  if (request.dumpTyped) result.typedDump = frontend::dumpTyped(typed);
  if (request.stopAfter == Stage::Check) return outcome.finish(ExitClass::Ok);

  LinkSettings link = linkSettings(request.codegen);
  size_t reported = diags.diagnostics().size();
  std::vector<LinkFile> linkFiles = collectLinkFiles(compilation, link, diags);
  // Only the new ones: the front end's were taken above.
  for (size_t i = reported; i < diags.diagnostics().size(); ++i) outcome.add(diags.diagnostics()[i]);
  if (diags.hasErrors()) return outcome.finish(ExitClass::SourceErrors);

  backend::CodegenOptions codegen = codegenFor(request, session);
  cache::Store* store = cacheable ? session.store() : nullptr;

  // Cache hits first: they need neither nvJitLink nor LLVM's code generator.
  std::vector<std::optional<UnitArtifacts>> units(archs.size());
  std::vector<cache::GetInfo> infos(archs.size());
  UnitRequest unitRequest;
  unitRequest.codegen = codegen;
  unitRequest.defines = request.codegen.defines;
  unitRequest.link = link;
  unitRequest.linkFiles = linkFiles;
  std::vector<cache::Key> keys;
  if (store) {
    unitRequest.nvJitLinkIdentity = session.nvJitLinkIdentity();
    unitRequest.libdeviceKey = session.libdeviceKey(codegen.libdevicePath);
    if (needsNvrtc(linkFiles)) unitRequest.nvrtcIdentity = session.nvrtcIdentity();
    for (size_t i = 0; i < archs.size(); ++i) {
      unitRequest.codegen.arch = archs[i];
      keys.push_back(unitKeyBuilder(compilation, unitRequest).key());
      std::optional<std::vector<cache::NamedOutput>> outputs = store->get(keys[i], &infos[i]);
      std::string why;
      if (outputs) units[i] = decodeUnit(*outputs, typed, archs[i], &why);
      const std::string where = request.path + " " + archs[i] + " (" + keys[i].hex() + ")";
      if (units[i] && !infos[i].remote.empty()) {
        log(session, LogLevel::Info, "cache hit for " + where + " from remote " + infos[i].remote);
      } else if (units[i]) {
        log(session, LogLevel::Info, "cache hit for " + where);
      } else if (outputs) {
        log(session, LogLevel::Info, "cache miss for " + where + ": unusable entry: " + why);
      } else {
        log(session, LogLevel::Info, "cache miss for " + where);
      }
      if (units[i] && request.shareHits) store->share(keys[i], *outputs);
    }
  }

  // A budget of the request's own, or the Session's.
  std::optional<ThreadBudget> ownThreads;
  if (request.jobs > 0) ownThreads.emplace(request.jobs);
  ThreadBudget* threads = ownThreads ? &*ownThreads : &session.threads();
  std::vector<size_t> misses;
  for (size_t i = 0; i < archs.size(); ++i) {
    if (!units[i]) misses.push_back(i);
  }
  // The misses, all at once, by the code generator (made at the Session's first).
  CodegenResult compiled;
  if (!misses.empty()) {
    auto made = session.codegen();
    if (!made) return outcome.finish(outcome.fail(made.takeError()));
    CodegenRequest codegenRequest;
    for (size_t i : misses) codegenRequest.archs.push_back(archs[i]);
    codegenRequest.codegen = codegen;
    codegenRequest.link = link;
    codegenRequest.linkFiles = linkFiles;
    codegenRequest.wantLlvm = wantLlvm;
    codegenRequest.wantLlvmOptimized = request.wantLlvmOptimized;
    codegenRequest.wantCubin = wantCubin;
    codegenRequest.threads = threads;
    if (store) {
      // Each unit is stored as soon as it is compiled.
      codegenRequest.compiled = [&](size_t m, const UnitArtifacts& unit) {
        store->put(keys[misses[m]], encodeUnit(unit));
      };
    }
    for (size_t i : misses) log(session, LogLevel::Info, "compiling " + request.path + " for " + archs[i]);
    compiled = (*made)->compile(compilation, codegenRequest);
    if (compiled.failure) return outcome.finish(outcome.fail(*compiled.failure));
    if (!compiled.nvJitLinkVersion.empty()) result.nvJitLinkVersion = compiled.nvJitLinkVersion;
  }
  // Results in arch order; the first failure (in that order) is reported.
  std::vector<ArchArtifacts> artifacts;
  std::vector<lowering::KernelInfo> kernels;
  size_t next = 0;
  const Failure* firstFailure = nullptr;
  for (size_t i = 0; i < archs.size(); ++i) {
    if (units[i]) {
      kernels = units[i]->kernels;
      if (result.nvJitLinkVersion == "none" && !units[i]->nvJitLinkVersion.empty()) {
        result.nvJitLinkVersion = units[i]->nvJitLinkVersion;
      }
      artifacts.push_back(std::move(units[i]->arch));
      recordTileShared(kernels, artifacts.back());
      continue;
    }
    CodegenArch& c = compiled.archs[next++];
    if (!c.unit) {
      if (firstFailure == nullptr) firstFailure = &c.failure;
      continue;
    }
    kernels = std::move(c.unit->kernels);
    artifacts.push_back(std::move(c.unit->arch));
    recordTileShared(kernels, artifacts.back());
  }
  if (firstFailure != nullptr) return outcome.finish(outcome.fail(*firstFailure));
  for (InstanceOutput& instance : result.instances) {
    for (const lowering::KernelInfo& k : kernels) {
      if (k.symbol != instance.symbol) continue;
      instance.tileThreads = k.tileThreads;
      instance.tileSharedBytes = k.tileSharedBytes;
    }
  }
  if (request.stopAfter != Stage::Llvm) {
    ManifestInputs inputs;
    inputs.source = request.path;
    inputs.stem = outputStem(request.path);
    inputs.pykcVersion = PYKC_VERSION;
    inputs.llvmVersion = LLVM_VERSION_STRING;
    inputs.nvJitLinkVersion = result.nvJitLinkVersion;
    inputs.hasCubin = wantCubin && request.wantCubin;
    inputs.hasPtx = wantPtx;
    if (request.wantFatbin) {
      inputs.fatbin = stageFileName(*findStage("fatbin"), inputs.stem, "");
      FatbinRequest fatbinRequest;
      fatbinRequest.stem = inputs.stem;
      fatbinRequest.store = store;
      if (store) {
        fatbinRequest.unitKeys = keys;
        fatbinRequest.nvFatbinIdentity = session.nvFatbinIdentity();
      }
      fatbinRequest.log = [&session](const std::string& line) { log(session, LogLevel::Info, line); };
      fatbinRequest.codegen = [&session] { return session.codegen(); };
      auto fatbin = makeFatbin(artifacts, fatbinRequest);
      if (!fatbin) {
        outcome.error("cannot make " + inputs.fatbin + ": " + llvm::toString(fatbin.takeError()));
        return outcome.finish(ExitClass::Environment);
      }
      result.fatbin = std::move(*fatbin);
    }
    result.manifest = buildManifest(typed, inputs, artifacts, kernels);
  }
  for (size_t i = 0; i < artifacts.size(); ++i) {
    ArchArtifacts& a = artifacts[i];
    ArchOutput out;
    out.arch = a.arch;
    out.llvmIr = std::move(a.llvmIr);
    out.llvmOptimizedIr = std::move(a.llvmOptimizedIr);
    const support::ArchInfo* info = support::findArch(a.arch);
    if (wantPtx || (info != nullptr && info->ptxOnly)) out.ptx = std::move(a.ptx);
    out.cubin = std::move(a.cubin);
    out.resources = std::move(a.resources);
    out.tileSharedBytes = std::move(a.tileSharedBytes);
    out.cacheHit = units[i].has_value();
    out.remote = infos[i].remote;
    if (store) out.key = keys[i].hex();
    result.archs.push_back(std::move(out));
  }
  return outcome.finish(ExitClass::Ok);
}

}  // namespace driver
