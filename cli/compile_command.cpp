// `pykc compile`: Python kernel file -> cubins, PTX and manifest.json.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <thread>
#include <string>
#include <vector>

#include "backend/nvjitlink.h"
#include "backend/nvrtc.h"
#include "backend/target.h"
#include "cache/store.h"
#include "frontend/check.h"
#include "driver/codegen_flags.h"
#include "cli/codegen_options.h"
#include "cli/command.h"
#include "cli/populate.h"
#include "driver/compile_unit.h"
#include "cli/invocation.h"
#include "driver/link_inputs.h"
#include "driver/pipeline.h"
#include "driver/thread_budget.h"

namespace cli {

using namespace driver;
namespace {

// The dynamic shared memory of one arch's tile kernels, for its manifest entry.
void recordTileShared(const std::vector<lowering::KernelInfo>& kernels, ArchArtifacts& arch) {
  for (const lowering::KernelInfo& k : kernels) {
    if (k.tileSharedBytes != 0) arch.tileSharedBytes[k.symbol] = k.tileSharedBytes;
  }
}

struct CompileOptions {
  std::string input;
  std::vector<std::string> archs{"sm_90"};
  std::string outputDir;
  std::vector<std::string> emit{"cubin", "ptx"};
  std::vector<std::string> sigs;
  std::vector<std::string> consts;
  // `-Wno-float64` and friends (driver/pipeline.h applyWarningFlags).
  std::vector<std::string> warnings;
  // -O, --use-fast-math, --maxrregcount, --lineinfo, -D, --link, -I,
  // --nvrtc-option, --lto: shared with `pykc cache populate`.
  CodegenFlags codegen;
  bool noCache = false;
  // `--cache-dir`: overrides $PYKC_CACHE_DIR and the defaults.
  std::string cacheDir;
  // `--remote URL` (repeatable) and `--no-remote`: the remote levels.
  std::vector<std::string> remotes;
  bool noRemote = false;
  // Stop after this stage: check, llvm, ptx or cubin (the default).
  std::string phase = "cubin";
  bool dumpTyped = false;
  // -j: threads for the kernel partitions (0: the hardware's).
  int jobs = 0;
};

class CompileCommand final : public Command {
public:
  explicit CompileCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "compile",
        "Compile the kernels of a Python file to cubins.\n"
        "Writes, per architecture, one cubin holding every kernel x signature of\n"
        "FILE, its PTX, and a manifest.json that says how to launch each kernel\n"
        "(see docs/ABI.md). Example:\n"
        "  pykc compile kernels.py --arch sm_80,sm_90 -o build/kernels\n"
        "\n"
        "A full compile (cubins; no --emit llvm or --phase) goes through the\n"
        "kernel cache, one entry per file and arch: a hit reads the cubin, PTX\n"
        "and manifest facts back without loading nvJitLink or LLVM's code\n"
        "generator. Only kernel code, the constants and modules it reads, the\n"
        "signatures, the arch, the options and the compiler versions count:\n"
        "edits to host code or comments still hit. -v says hit or miss per arch;\n"
        "PYKC_CACHE_MAXSIZE sets the size limit (2G). With --remote URL (or\n"
        "$PYKC_REMOTE_STORAGE) a local miss asks remote storage (HTTP or Redis,\n"
        "see `pykc cache --help`) and a compile is uploaded to read-write remotes.\n"
        "See docs/CACHE.md.");
    sub->add_option("FILE", opts_.input, "Python file holding @cuda.jit kernels")
        ->required();
    sub->add_option("--arch", opts_.archs,
                    "GPU architectures, comma separated (sm_75 ... sm_90a)")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("-o,--output", opts_.outputDir,
                    "Output folder (default: FILE's name without .py, beside it)");
    sub->add_option("--emit", opts_.emit, "What to write: llvm, ptx, cubin")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--sig", opts_.sigs,
                    "Signature for an untyped kernel: 'name(float32[::1], int64)'");
    addCodegenFlags(*sub, opts_.codegen);
    sub->add_option("--const", opts_.consts,
                    "A tile kernel's Constant parameter: NAME=VALUE (repeat for more specialisations)");
    sub->add_option("-W", opts_.warnings,
                    "Warnings: -Wno-float64 turns off the float64-arithmetic warning");
    sub->add_flag("--no-cache", opts_.noCache, "Do not read or write the kernel cache");
    sub->add_option("--cache-dir", opts_.cacheDir,
                    "Kernel cache folder (default: $PYKC_CACHE_DIR, else\n"
                    "$XDG_CACHE_HOME/pykc, else ~/.cache/pykc)");
    sub->add_option("--remote", opts_.remotes,
                    "Remote cache storage, repeatable (overrides $PYKC_REMOTE_STORAGE):\n"
                    "http://HOST[:PORT][/PREFIX] or redis://HOST[:PORT][/DB], then\n"
                    "|read-only, |connect-timeout=MS, |operation-timeout=MS")
        // One URL per --remote (not every argument after it: FILE may follow).
        ->allow_extra_args(false);
    sub->add_flag("--no-remote", opts_.noRemote,
                  "Use no remote storage (ignore $PYKC_REMOTE_STORAGE)");
    sub->add_option("--phase", opts_.phase,
                    "Stop after this stage: check, llvm, ptx or cubin (writes what it has)")
        ->check(CLI::IsMember({"check", "llvm", "ptx", "cubin"}))
        ->capture_default_str();
    sub->add_flag("--dump-typed", opts_.dumpTyped,
                  "Print every kernel/device function instance and its variables' types");
    sub->add_option("-j,--jobs", opts_.jobs,
                    "Threads for a multi-kernel file's LLVM work, one kernel per task\n"
                    "(default: hardware threads); the outputs do not depend on it")
        ->check(CLI::Range(0, 1024));
  }

  int run(Invocation& inv) override;

private:
  CompileOptions opts_;
};

int CompileCommand::run(Invocation& inv) {
  frontend::RenderOptions render;
  render.showKinds = inv.diagKinds;
  render.color = inv.color;
  auto fail = [&](llvm::Error error) {
    // Mistakes in linked C++ (or its declaration) are source errors.
    bool sourceError = false;
    llvm::Error rest = llvm::handleErrors(std::move(error), [&](const LinkSourceError& e) {
      for (const frontend::Diagnostic& d : e.diagnostics()) {
        std::string text = frontend::renderDiagnostic(d, render);
        std::fwrite(text.data(), 1, text.size(), inv.err);
      }
      sourceError = true;
    });
    if (!rest) return sourceError ? kExitSourceErrors : kExitEnvironment;
    bool usage = false;
    rest = llvm::handleErrors(std::move(rest), [&](const backend::NvrtcOptionError& e) {
      std::string message = e.text();
      std::fprintf(inv.err, "pykc: error: %s\n", message.c_str());
      usage = true;
    });
    if (!rest) return usage ? kExitUsage : kExitEnvironment;
    std::string message = llvm::toString(std::move(rest));
    std::fprintf(inv.err, "pykc: error: %s\n", message.c_str());
    return kExitEnvironment;
  };
  // The command line first.
  std::vector<std::string> archs;
  if (std::optional<std::string> why = uniqueArchs(opts_.archs, archs)) {
    std::fprintf(inv.err, "pykc: error: %s\n", why->c_str());
    return kExitUsage;
  }
  bool wantLlvm = false, wantPtx = false, wantCubin = false;
  for (const std::string& e : opts_.emit) {
    if (e == "llvm") {
      wantLlvm = true;
    } else if (e == "ptx") {
      wantPtx = true;
    } else if (e == "cubin") {
      wantCubin = true;
    } else {
      std::fprintf(inv.err, "pykc: error: --emit %s: expected llvm, ptx or cubin\n", e.c_str());
      return kExitUsage;
    }
  }
  if (opts_.phase == "llvm") {
    wantLlvm = true;
    wantPtx = wantCubin = false;
  } else if (opts_.phase == "ptx") {
    wantCubin = false;
    wantPtx = true;
  }
  if (std::optional<std::string> why = checkCodegenFlags(opts_.codegen)) {
    std::fprintf(inv.err, "pykc: error: %s\n", why->c_str());
    return kExitUsage;
  }
  std::optional<std::vector<cache::RemoteSpec>> remotes =
      resolveRemotes(opts_.remotes, opts_.noRemote || opts_.noCache, inv);
  if (!remotes) return kExitUsage;

  frontend::DiagnosticSink diags;
  Compilation compilation;
  FrontendOptions frontendOptions;
  frontendOptions.sigs = opts_.sigs;
  frontendOptions.defines = opts_.codegen.defines;
  frontendOptions.consts = opts_.consts;
  if (llvm::Error error = applyWarningFlags(opts_.warnings, frontendOptions)) {
    std::string message = llvm::toString(std::move(error));
    std::fprintf(inv.err, "pykc: error: %s\n", message.c_str());
    return kExitUsage;
  }
  if (llvm::Error error = runFrontend(opts_.input, frontendOptions, compilation, diags)) {
    diags.render(inv.err, render);
    return fail(std::move(error));
  }
  diags.render(inv.err, render);
  if (diags.hasErrors() || !compilation.typed) return kExitSourceErrors;
  if (opts_.dumpTyped) {
    std::string text = frontend::dumpTyped(*compilation.typed);
    std::fwrite(text.data(), 1, text.size(), inv.out);
  }
  if (opts_.phase == "check") return kExitOk;

  LinkSettings link = linkSettings(opts_.codegen);
  std::vector<LinkFile> linkFiles = collectLinkFiles(compilation, link, diags);
  if (diags.hasErrors()) {
    diags.render(inv.err, render);
    return kExitSourceErrors;
  }

  // Output folder and file stem.
  llvm::SmallString<256> stem(llvm::sys::path::filename(opts_.input));
  if (llvm::sys::path::extension(stem) == ".py") llvm::sys::path::replace_extension(stem, "");
  std::string outputDir = opts_.outputDir;
  if (outputDir.empty()) {
    llvm::SmallString<256> dir(opts_.input);
    if (llvm::sys::path::extension(dir) == ".py") llvm::sys::path::replace_extension(dir, "");
    outputDir = std::string(dir);
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    std::fprintf(inv.err, "pykc: error: cannot create `%s`: %s\n", outputDir.c_str(),
                 ec.message().c_str());
    return kExitEnvironment;
  }
  auto outPath = [&](const std::string& arch, const char* ext) {
    llvm::SmallString<256> p(outputDir);
    llvm::sys::path::append(p, std::string(stem) + "." + arch + ext);
    return std::string(p);
  };

  backend::CodegenOptions codegen = codegenOptions(opts_.codegen);

  // Only a full compile goes through the cache (docs/CACHE.md): its entry
  // holds exactly the cubin, PTX and manifest facts of one file and arch.
  std::optional<cache::Store> store;
  if (!opts_.noCache && wantCubin && !wantLlvm && opts_.phase == "cubin") {
    if (auto options = cacheStoreOptions(opts_.cacheDir, logSink(inv), std::move(*remotes))) {
      store.emplace(std::move(*options));
    } else if (inv.log) {
      inv.log->info("no cache folder (set PYKC_CACHE_DIR or HOME): compiling without a cache");
    }
  }

  // Cache hits first: they need neither nvJitLink nor LLVM's code generator.
  std::vector<std::optional<UnitArtifacts>> units(archs.size());
  UnitRequest unitRequest;
  unitRequest.codegen = codegen;
  unitRequest.defines = opts_.codegen.defines;
  unitRequest.link = link;
  unitRequest.linkFiles = linkFiles;
  std::vector<cache::Key> keys;
  if (store) {
    unitRequest.nvJitLinkIdentity = backend::nvJitLinkIdentity();
    for (size_t i = 0; i < archs.size(); ++i) {
      unitRequest.codegen.arch = archs[i];
      keys.push_back(unitKeyBuilder(compilation, unitRequest).key());
      cache::GetInfo info;
      std::optional<std::vector<cache::NamedOutput>> outputs = store->get(keys[i], &info);
      std::string why;
      if (outputs) units[i] = decodeUnit(*outputs, *compilation.typed, archs[i], &why);
      if (inv.log) {
        if (units[i] && !info.remote.empty()) {
          inv.log->info("cache hit for {} {} ({}) from remote {}", opts_.input, archs[i],
                        keys[i].hex(), info.remote);
        } else if (units[i]) {
          inv.log->info("cache hit for {} {} ({})", opts_.input, archs[i], keys[i].hex());
        } else if (outputs) {
          inv.log->info("cache miss for {} {} ({}): unusable entry: {}", opts_.input, archs[i],
                        keys[i].hex(), why);
        } else {
          inv.log->info("cache miss for {} {} ({})", opts_.input, archs[i], keys[i].hex());
        }
      }
    }
  }

  ThreadBudget threads(opts_.jobs > 0 ? static_cast<unsigned>(opts_.jobs)
                                      : std::max(1u, std::thread::hardware_concurrency()));
  unitRequest.threads = &threads;
  UnitLinker linker([] { backend::initializeNvptxTarget(); });
  std::string nvJitLinkVersion = "none";
  // The arches to compile, each on a thread of the budget (their kernel
  // partitions draw from it too): nvJitLink and NVRTC are opened here first,
  // so the threads only read them.
  std::vector<size_t> misses;
  for (size_t i = 0; i < archs.size(); ++i) {
    if (!units[i]) misses.push_back(i);
  }
  if (!misses.empty()) {
    if (wantCubin) {
      auto loaded = linker.get();
      if (!loaded) return fail(loaded.takeError());
      nvJitLinkVersion = linker.version();
      if (needsNvrtc(linkFiles)) {
        auto opened = linker.nvrtc();
        if (!opened) return fail(opened.takeError());
      }
    } else {
      backend::initializeNvptxTarget();
    }
  }
  struct Compiled {
    std::optional<llvm::Expected<ArchArtifacts>> artifacts;
    std::vector<lowering::KernelInfo> kernels;
  };
  std::vector<Compiled> compiled(misses.size());
  for (size_t m = 0; m < misses.size(); ++m) {
    if (inv.log) inv.log->info("compiling {} for {}", opts_.input, archs[misses[m]]);
  }
  parallelFor(misses.size(), &threads, [&](size_t m) {
    const std::string& arch = archs[misses[m]];
    Compiled& out = compiled[m];
    if (store) {
      // A miss: compile, then store the unit.
      UnitRequest request = unitRequest;
      request.codegen.arch = arch;
      auto unit = compileUnit(compilation, request, linker);
      if (!unit) {
        out.artifacts.emplace(unit.takeError());
        return;
      }
      store->put(keys[misses[m]], encodeUnit(*unit));
      out.kernels = unit->kernels;
      out.artifacts.emplace(std::move(unit->arch));
      return;
    }
    ArchRequest request;
    request.codegen = codegen;
    request.codegen.arch = arch;
    request.lowering.lineInfo = opts_.codegen.lineInfo;
    request.wantLlvm = wantLlvm;
    request.wantCubin = wantCubin;
    request.threads = &threads;
    const backend::NvJitLink* library = nullptr;
    std::vector<PreparedInput> prepared;
    if (wantCubin) {
      // Both were opened before the threads started.
      library = llvm::cantFail(linker.get());
      const backend::Nvrtc* nvrtc = needsNvrtc(linkFiles) ? llvm::cantFail(linker.nvrtc()) : nullptr;
      auto inputs = prepareLinkInputs(compilation, linkFiles, link, request.codegen, nvrtc);
      if (!inputs) {
        out.artifacts.emplace(inputs.takeError());
        return;
      }
      prepared = std::move(*inputs);
      for (const PreparedInput& input : prepared) {
        request.extraInputs.push_back(backend::LinkInput{input.kind, input.bytes, input.name});
      }
    }
    out.artifacts.emplace(compileForArch(compilation, request, library, out.kernels));
  });
  // Results in arch order; the first failure (in that order) is reported.
  std::vector<ArchArtifacts> artifacts;
  std::vector<lowering::KernelInfo> kernels;
  size_t next = 0;
  llvm::Error firstError = llvm::Error::success();
  for (size_t i = 0; i < archs.size(); ++i) {
    if (units[i]) {
      kernels = units[i]->kernels;
      if (nvJitLinkVersion == "none") nvJitLinkVersion = units[i]->nvJitLinkVersion;
      artifacts.push_back(std::move(units[i]->arch));
      recordTileShared(kernels, artifacts.back());
      continue;
    }
    Compiled& c = compiled[next++];
    if (!*c.artifacts) {
      llvm::Error error = c.artifacts->takeError();
      if (firstError) {
        llvm::consumeError(std::move(error));
      } else {
        firstError = store ? std::move(error) : explainLinkError(std::move(error), compilation);
      }
      continue;
    }
    kernels = std::move(c.kernels);
    artifacts.push_back(std::move(**c.artifacts));
    recordTileShared(kernels, artifacts.back());
  }
  if (firstError) return fail(std::move(firstError));
  for (const ArchArtifacts& a : artifacts) {
    if (wantLlvm) {
      if (llvm::Error e = writeFileAtomically(outPath(a.arch, ".ll"), a.llvmIr)) return fail(std::move(e));
    }
    if (wantPtx) {
      if (llvm::Error e = writeFileAtomically(outPath(a.arch, ".ptx"), a.ptx)) return fail(std::move(e));
    }
    if (wantCubin) {
      if (llvm::Error e = writeFileAtomically(outPath(a.arch, ".cubin"), a.cubin)) return fail(std::move(e));
    }
  }
  if (opts_.phase == "llvm") return kExitOk;
  ManifestInputs inputs;
  inputs.source = opts_.input;
  inputs.stem = std::string(stem);
  inputs.pykcVersion = PYKC_VERSION;
  inputs.llvmVersion = LLVM_VERSION_STRING;
  inputs.nvJitLinkVersion = nvJitLinkVersion;
  inputs.hasCubin = wantCubin;
  inputs.hasPtx = wantPtx;
  std::string manifest = buildManifest(*compilation.typed, inputs, artifacts, kernels);
  llvm::SmallString<256> manifestPath(outputDir);
  llvm::sys::path::append(manifestPath, "manifest.json");
  if (llvm::Error e = writeFileAtomically(std::string(manifestPath), manifest)) return fail(std::move(e));
  return kExitOk;
}

}  // namespace

std::unique_ptr<Command> addCompileCommand(CLI::App& app) {
  return std::make_unique<CompileCommand>(app);
}

}  // namespace cli
