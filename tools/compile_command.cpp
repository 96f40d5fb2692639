// `pykc compile`: Python kernel file -> cubins, PTX and manifest.json.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tools/command.h"
#include "tools/invocation.h"

namespace tools {
namespace {

struct CompileOptions {
  std::string input;
  std::vector<std::string> archs{"sm_90"};
  std::string outputDir;
  std::vector<std::string> emit{"cubin", "ptx"};
  std::vector<std::string> sigs;
  std::vector<std::string> defines;
  int optLevel = 3;
  bool lineInfo = false;
  bool fastMath = false;
  int maxRegisters = 0;
  bool noCache = false;
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
        "  pykc compile kernels.py --arch sm_80,sm_90 -o build/kernels");
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
    sub->add_option("-D", opts_.defines, "Override a module constant: NAME=VALUE");
    sub->add_option("-O", opts_.optLevel, "Optimisation level 0-3")
        ->check(CLI::Range(0, 3))
        ->capture_default_str();
    sub->add_flag("--lineinfo", opts_.lineInfo, "Map machine code to Python lines");
    sub->add_flag("--use-fast-math", opts_.fastMath,
                  "Approximate division and square root, flush denormals to zero");
    sub->add_option("--maxrregcount", opts_.maxRegisters,
                    "Limit registers per thread (0: no limit)");
    sub->add_flag("--no-cache", opts_.noCache, "Do not read or write the kernel cache");
  }

  int run(Invocation& inv) override {
    std::fprintf(inv.err, "pykc: error: `compile` is not implemented in this build yet\n");
    return kExitEnvironment;
  }

private:
  CompileOptions opts_;
};

}  // namespace

std::unique_ptr<Command> addCompileCommand(CLI::App& app) {
  return std::make_unique<CompileCommand>(app);
}

}  // namespace tools
