// The pykc driver: parses the command line, runs one subcommand, maps the
// outcome to an exit code. This file holds the only top-level catch.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>
#include <string>
#include <unistd.h>

#include "cli/command.h"
#include "cli/invocation.h"
#include "cli/version.h"

namespace {

constexpr const char* kDescription =
    "pykc: an ahead-of-time compiler for CUDA kernels written in Python.\n"
    "\n"
    "Reads ordinary Python files holding numba.cuda kernels and compiles them to\n"
    "cubins for the GPU architectures you name, with a manifest that says how to\n"
    "launch each kernel. Needs no Python, numba or GPU to compile.\n"
    "\n"
    "Examples:\n"
    "  pykc compile examples/saxpy.py --arch sm_80,sm_90 -o build/saxpy\n"
    "  pykc parse examples/saxpy.py --dump-ast\n"
    "  pykc inspect examples/saxpy.py::saxpy --emit ptx\n"
    "  pykc header build/saxpy -o build/saxpy.h\n"
    "\n"
    "Exit codes: 0 ok, 1 errors in the source, 2 bad command line,\n"
    "3 environment or internal failure.";

// A repeatable option (`--arch`, `--sig`, `-D`, ...) takes one value per flag, so
// `pykc compile --arch sm_90 FILE` leaves FILE to the positional argument instead of
// reading it as a second arch. Commas still give several values in one flag.
void oneValuePerFlag(CLI::App& app) {
  for (CLI::Option* opt : app.get_options([](CLI::Option*) { return true; })) {
    if (!opt->get_positional() && opt->get_type_size_max() > 0) opt->allow_extra_args(false);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) oneValuePerFlag(*sub);
}

}  // namespace

int main(int argc, char** argv) {
  cli::Invocation inv;
  try {
    CLI::App app{kDescription, "pykc"};
    app.require_subcommand(0, 1);
    bool showVersion = false;
    app.add_flag("--version", showVersion,
                 "Print the versions of pykc, LLVM and nvJitLink, then exit");
    std::string color = "auto";
    app.add_option("--color", color, "Colour diagnostics: auto, always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
    app.add_flag("--diag-kinds", inv.diagKinds,
                 "Show each diagnostic's kind, as in `[not-indexable]` (for tests)");
    int verbose = 0;
    app.add_flag("-v,--verbose", verbose, "More log output (repeat for more)");

    auto parseCmd = cli::addParseCommand(app);
    auto compileCmd = cli::addCompileCommand(app);
    auto inspectCmd = cli::addInspectCommand(app);
    auto cacheCmd = cli::addCacheCommand(app);
    auto headerCmd = cli::addHeaderCommand(app);
    oneValuePerFlag(app);

    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      app.exit(e);
      return cli::kExitUsage;
    }

    inv.color = color == "always" || (color == "auto" && isatty(fileno(stderr)));
    inv.log = spdlog::stderr_color_mt("pykc");
    inv.log->set_pattern("pykc: %l: %v");
    inv.log->set_level(verbose >= 2   ? spdlog::level::debug
                       : verbose == 1 ? spdlog::level::info
                                      : spdlog::level::warn);

    if (showVersion) {
      std::fputs(cli::versionText().c_str(), inv.out);
      return cli::kExitOk;
    }
    cli::Command* selected = nullptr;
    if (app.got_subcommand("parse")) selected = parseCmd.get();
    if (app.got_subcommand("compile")) selected = compileCmd.get();
    if (app.got_subcommand("inspect")) selected = inspectCmd.get();
    if (app.got_subcommand("cache")) selected = cacheCmd.get();
    if (app.got_subcommand("header")) selected = headerCmd.get();
    if (!selected) {
      std::fputs(app.help().c_str(), inv.err);
      return cli::kExitUsage;
    }
    return selected->run(inv);
  } catch (const std::exception& e) {
    std::fprintf(inv.err, "pykc: error: internal failure: %s\n", e.what());
    return cli::kExitEnvironment;
  } catch (...) {
    std::fprintf(inv.err, "pykc: error: internal failure\n");
    return cli::kExitEnvironment;
  }
}
