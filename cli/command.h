#pragma once
// The driver's subcommands. Each registers its options on a CLI11 subcommand
// and runs when the user selected it. Only tools/ knows about CLI11.
#include <memory>

namespace CLI {
class App;
}

namespace cli {

// Process exit codes, as documented in `pykc --help`.
enum ExitCode : int {
  kExitOk = 0,
  kExitSourceErrors = 1,
  kExitUsage = 2,
  kExitEnvironment = 3,
};

struct Invocation;

// One subcommand. `run` returns an ExitCode; it must not throw.
class Command {
public:
  virtual ~Command() = default;
  virtual int run(Invocation& inv) = 0;
};

// Each adds its subcommand to `app` and returns the object that runs it.
// The returned object is filled by CLI11 while parsing; it must outlive parsing.
std::unique_ptr<Command> addParseCommand(CLI::App& app);
std::unique_ptr<Command> addCompileCommand(CLI::App& app);
std::unique_ptr<Command> addInspectCommand(CLI::App& app);
std::unique_ptr<Command> addCacheCommand(CLI::App& app);
std::unique_ptr<Command> addHeaderCommand(CLI::App& app);

}  // namespace cli
