#include "cli/codegen_options.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string_view>

namespace cli {

void addCodegenFlags(CLI::App& sub, driver::CodegenFlags& flags) {
  sub.add_option("-D", flags.defines, "Override a module constant: NAME=VALUE");
  sub.add_option("-O", flags.optLevel, "Optimisation level 0-3")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  sub.add_flag("--lineinfo", flags.lineInfo, "Map machine code to Python lines");
  sub.add_flag("--use-fast-math", flags.fastMath,
               "Approximate division and square root, flush denormals to zero");
  sub.add_option("--maxrregcount", flags.maxRegisters,
                 "Limit registers per thread (0: no limit)");
  sub.add_flag("--no-alias-versioning", flags.noAliasVersioning,
               "Do not give kernels a second body for arrays that do not overlap\n"
               "(chosen at run time; docs/compile.md)");
  sub.add_option("--link", flags.links,
                 "Link FILE into every cubin: .cu (compiled by NVRTC for each arch),\n"
                 ".ptx, .ltoir (NVRTC/nvcc -dlto output), .cubin, .fatbin, .o, .a.\n"
                 "Kernels call its functions through cuda.declare_device\n"
                 "(docs/INTEROP.md); `link=` in the source does the same");
  sub.add_option("-I", flags.includeDirs,
                 "Include folder for linked .cu files (the toolkit's include and\n"
                 "include/cccl are searched after it); -D NAME=VALUE reaches NVRTC too");
  sub.add_option("--nvrtc-option", flags.nvrtcOptions,
                 "Pass an option to NVRTC as is, e.g. --nvrtc-option=-std=c++20");
  sub.add_option("--python-path", flags.pythonPath,
                 "Folder searched for the modules the file imports device functions,\n"
                 "helpers and constants from (`from pkg.mod import f`, `from . import core`),\n"
                 "after the file's own folder; repeatable. $PYTHONPATH's folders follow");
  sub.add_flag("--lto", flags.lto,
               "Compile linked .cu files to LTO-IR (NVRTC -dlto) and link with\n"
               "nvJitLink -lto instead of as PTX");
}

driver::CodegenFlags withEnvironmentPythonPath(driver::CodegenFlags flags) {
  const char* env = std::getenv("PYTHONPATH");
  std::string_view rest = env != nullptr ? env : "";
  while (!rest.empty()) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) flags.pythonPath.emplace_back(dir);
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return flags;
}

}  // namespace cli
