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

#include "driver/stages.h"
#include "driver/codegen_flags.h"
#include "cli/codegen_options.h"
#include "cli/command.h"
#include "cli/populate.h"
#include "driver/driver.h"
#include "cli/invocation.h"
#include "driver/pipeline.h"
#include "support/arch.h"

namespace cli {

using namespace driver;
namespace {

struct CompileOptions {
  std::string input;
  std::vector<std::string> archs{"sm_90"};
  std::string outputDir;
  std::vector<std::string> emit{"cubin", "ptx"};
  std::vector<std::string> sigs;
  std::vector<std::string> consts;
  // `--kernel NAME`: only these kernels.
  std::vector<std::string> kernels;
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
  // --fatbin: also write STEM.fatbin (every cubin and the compute_XY PTX).
  bool fatbin = false;
  // --nvfatbin PATH: the nvFatbin library to open.
  std::string nvFatbinPath;
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
        "see `pykc cache --help`) and a compile is uploaded to remotes marked\n"
        "`read-write`.\n"
        "See docs/CACHE.md.");
    sub->add_option("FILE", opts_.input, "Python file holding @cuda.jit kernels")
        ->required();
    sub->add_option("--arch", opts_.archs,
                    "GPU architectures, comma separated: sm_75 ... sm_121f for cubins\n"
                    "(sm_100 and newer from sm_90 PTX, which LLVM 19 writes at most),\n"
                    "compute_75 ... compute_90a for PTX alone (the driver JIT-compiles\n"
                    "it on that GPU and every later one)")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_flag("--fatbin", opts_.fatbin,
                  "Also write FILE's name + .fatbin: every arch's cubin and the PTX of\n"
                  "the compute_XY arches in one file (made by NVIDIA's nvFatbin), from\n"
                  "which the CUDA driver loads the GPU's code (see docs/compile.md)");
    sub->add_option("--nvfatbin", opts_.nvFatbinPath,
                    "The nvFatbin library --fatbin opens (default: the CUDA toolkit's,\n"
                    "else the nvidia-nvfatbin wheel's, else libnvfatbin.so.13 on\n"
                    "LD_LIBRARY_PATH)");
    sub->add_option("-o,--output", opts_.outputDir,
                    "Output folder (default: FILE's name without .py, beside it)");
    sub->add_option("--emit", opts_.emit, "What to write: " + driver::stageNames(&driver::StageInfo::compileEmit))
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--sig", opts_.sigs,
                    "Signature for an untyped kernel: 'name(float32[::1], int64)'");
    addCodegenFlags(*sub, opts_.codegen);
    sub->add_option("--const", opts_.consts,
                    "A tile kernel's Constant parameter: NAME=VALUE (repeat for more\n"
                    "specialisations), or KERNEL.NAME=VALUE for one kernel alone");
    sub->add_option("--kernel", opts_.kernels,
                    "Compile only this kernel (repeatable); the file's other kernels\n"
                    "are not checked, so their errors do not fail it");
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
                    "Stop after this stage: " + driver::stageNames(&driver::StageInfo::compilePhase) +
                        " (writes what it has)")
        ->check([](const std::string& v) -> std::string {
          const driver::StageInfo* s = driver::findStage(v);
          if (s != nullptr && s->compilePhase) return "";
          return v + " is not one of " + driver::stageNames(&driver::StageInfo::compilePhase);
        })
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
  // The command line first.
  driver::CompileRequest request;
  request.path = opts_.input;
  request.archs = opts_.archs;
  request.sigs = opts_.sigs;
  request.consts = opts_.consts;
  request.kernels = opts_.kernels;
  request.codegen = withEnvironmentPythonPath(opts_.codegen);
  request.dumpTyped = opts_.dumpTyped;
  request.wantFatbin = opts_.fatbin;
  request.render.showKinds = inv.diagKinds;
  request.render.color = inv.color;
  if (opts_.outputDir == "-") {
    // Not standard output: a compile writes a folder (cubins, manifest).
    std::fprintf(inv.err,
                 "pykc: error: -o -: `pykc compile` writes a folder of files (cubins, PTX, manifest.json); "
                 "give a folder, or print a stage with `pykc inspect FILE --emit ptx`\n");
    return kExitUsage;
  }
  request.wantLlvm = request.wantPtx = request.wantCubin = false;
  for (const std::string& e : opts_.emit) {
    const driver::StageInfo* stage = driver::findStage(e);
    if (stage == nullptr || !stage->compileEmit) {
      std::string names = driver::stageNames(&driver::StageInfo::compileEmit);
      std::fprintf(inv.err, "pykc: error: --emit %s: expected %s\n", e.c_str(), names.c_str());
      return kExitUsage;
    }
    request.wantLlvm = request.wantLlvm || e == "llvm";
    request.wantPtx = request.wantPtx || e == "ptx";
    request.wantCubin = request.wantCubin || e == "cubin";
  }
  request.stopAfter = opts_.phase == "check" ? driver::Stage::Check
                      : opts_.phase == "llvm" ? driver::Stage::Llvm
                      : opts_.phase == "ptx"  ? driver::Stage::Ptx
                                              : driver::Stage::Cubin;
  if (request.stopAfter == driver::Stage::Llvm) request.wantLlvm = true;
  std::optional<std::vector<cache::RemoteSpec>> remotes =
      resolveRemotes(opts_.remotes, opts_.noRemote || opts_.noCache, inv);
  if (!remotes) return kExitUsage;
  FrontendOptions warnings;
  if (llvm::Error error = applyWarningFlags(opts_.warnings, warnings)) {
    std::string message = llvm::toString(std::move(error));
    std::fprintf(inv.err, "pykc: error: %s\n", message.c_str());
    return kExitUsage;
  }
  request.warnFloat64 = warnings.warnFloat64;

  driver::SessionSettings settings;
  settings.cacheDir = opts_.cacheDir;
  settings.useCache = !opts_.noCache;
  settings.remotes = std::move(*remotes);
  settings.threads = opts_.jobs > 0 ? static_cast<unsigned>(opts_.jobs) : 0;
  settings.log = logSink(inv);
  settings.nvFatbinPath = opts_.nvFatbinPath;
  driver::Session session(std::move(settings));
  driver::CompileResult result = driver::compile(request, session);
  std::fwrite(result.rendered.data(), 1, result.rendered.size(), inv.err);
  std::fwrite(result.typedDump.data(), 1, result.typedDump.size(), inv.out);
  if (result.exit != driver::ExitClass::Ok) return static_cast<int>(result.exit);
  if (request.stopAfter == driver::Stage::Check) return kExitOk;

  // The outputs: per arch, then the manifest.
  std::string stem = driver::outputStem(opts_.input);
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
  auto write = [&](const std::string& name, const std::string& bytes) {
    llvm::SmallString<256> p(outputDir);
    llvm::sys::path::append(p, name);
    if (llvm::Error e = writeFileAtomically(std::string(p), bytes)) {
      std::string message = llvm::toString(std::move(e));
      std::fprintf(inv.err, "pykc: error: %s\n", message.c_str());
      return false;
    }
    return true;
  };
  const driver::WantedOutputs wanted = driver::wantedOutputs(request);
  for (const driver::ArchOutput& a : result.archs) {
    auto file = [&](const char* stage) { return driver::stageFileName(*driver::findStage(stage), stem, a.arch); };
    // compute_XY: the PTX is the code (no cubin).
    const support::ArchInfo* info = support::findArch(a.arch);
    bool ptxOnly = info != nullptr && info->ptxOnly;
    bool ptx = wanted.ptx || (ptxOnly && request.stopAfter != driver::Stage::Llvm);
    if (wanted.llvm && !write(file("llvm"), a.llvmIr)) return kExitEnvironment;
    if (ptx && !write(file("ptx"), a.ptx)) return kExitEnvironment;
    if (wanted.cubin && request.wantCubin && !ptxOnly && !write(file("cubin"), a.cubin)) return kExitEnvironment;
  }
  if (request.stopAfter == driver::Stage::Llvm) return kExitOk;
  if (request.wantFatbin &&
      !write(driver::stageFileName(*driver::findStage("fatbin"), stem, ""), result.fatbin)) {
    return kExitEnvironment;
  }
  if (!write("manifest.json", result.manifest)) return kExitEnvironment;
  return kExitOk;
}

}  // namespace

std::unique_ptr<Command> addCompileCommand(CLI::App& app) {
  return std::make_unique<CompileCommand>(app);
}

}  // namespace cli
