// `pykc header`: a `pykc compile` output folder -> a C/C++ launch header
// (cli/launch_header.h), for C++ builds (cmake/PykcKernels.cmake).
#include <CLI/CLI.hpp>

#include <llvm/Support/Error.h>

#include <cstdio>
#include <string>

#include "cache/atomic_file.h"
#include "cli/command.h"
#include "cli/invocation.h"
#include "cli/launch_header.h"

namespace cli {
namespace {

class HeaderCommand final : public Command {
public:
  explicit HeaderCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "header",
        "Write a C/C++ header that launches the kernels of a `pykc compile` output\n"
        "folder through the CUDA driver API: the cubins (or the fatbin, and PTX of\n"
        "compute_XY arches) embedded, a loader that picks the GPU's code, and per\n"
        "kernel entry an argument struct laid out as docs/ABI.md passes parameters\n"
        "and a typed launch function (grid, block, shared memory, stream).\n"
        "The same folder gives the same bytes. Example:\n"
        "  pykc compile kernels.py --arch sm_80,sm_90 -o build/kernels\n"
        "  pykc header build/kernels -o build/include/kernels.h\n"
        "CMake projects get both from pykc_add_kernels (find_package(pykc)).");
    sub->add_option("FOLDER", options_.folder, "Output folder of `pykc compile` (holding manifest.json)")
        ->required();
    sub->add_option("-o,--output", output_, "Header to write (default: standard output)");
    sub->add_option("--prefix", options_.prefix,
                    "Start of every name in the header (default: the kernel file's name\n"
                    "without .py)");
  }

  int run(Invocation& inv) override {
    auto header = renderLaunchHeader(options_);
    if (!header) {
      std::fprintf(inv.err, "pykc: error: %s\n", llvm::toString(header.takeError()).c_str());
      return kExitEnvironment;
    }
    if (output_.empty()) {
      std::fwrite(header->data(), 1, header->size(), inv.out);
      return kExitOk;
    }
    std::string error;
    if (!cache::writeFileAtomic(output_, *header, /*sync=*/false, &error)) {
      std::fprintf(inv.err, "pykc: error: %s\n", error.c_str());
      return kExitEnvironment;
    }
    return kExitOk;
  }

private:
  LaunchHeaderOptions options_;
  std::string output_;
};

}  // namespace

std::unique_ptr<Command> addHeaderCommand(CLI::App& app) { return std::make_unique<HeaderCommand>(app); }

}  // namespace cli
