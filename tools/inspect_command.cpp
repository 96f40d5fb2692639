// `pykc inspect`: show any stage of a kernel's compilation.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tools/command.h"
#include "tools/invocation.h"

namespace tools {
namespace {

class InspectCommand final : public Command {
public:
  explicit InspectCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "inspect",
        "Show a stage of a kernel's compilation, mapped back to Python lines.\n"
        "Examples:\n"
        "  pykc inspect kernels.py::saxpy --emit types\n"
        "  pykc inspect kernels.py --emit ptx,resources -o inspect-out/");
    sub->add_option("TARGET", target_, "FILE or FILE::KERNEL")->required();
    sub->add_option("--emit", emit_,
                    "tokens, ast, types, llvm, llvm-opt, ptx, sass, resources, cache-key")
        ->delimiter(',')
        ->required();
    sub->add_option("--sig", sigs_, "Signature for an untyped kernel: 'name(types)'");
    sub->add_option("--arch", arch_, "GPU architecture")->capture_default_str();
    sub->add_option("-o,--output", outputDir_, "Write each form to a file in this folder");
    sub->add_flag("--json", json_, "Machine-readable output");
  }

  int run(Invocation& inv) override {
    std::fprintf(inv.err, "pykc: error: `inspect` is not implemented in this build yet\n");
    return kExitEnvironment;
  }

private:
  std::string target_;
  std::vector<std::string> emit_;
  std::vector<std::string> sigs_;
  std::string arch_ = "sm_90";
  std::string outputDir_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> addInspectCommand(CLI::App& app) {
  return std::make_unique<InspectCommand>(app);
}

}  // namespace tools
