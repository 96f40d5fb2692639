// `pykc cache`: manage the content-addressed kernel cache.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tools/command.h"
#include "tools/invocation.h"

namespace tools {
namespace {

class CacheCommand final : public Command {
public:
  explicit CacheCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "cache",
        "Manage the kernel cache ($PYKC_CACHE_DIR, else $XDG_CACHE_HOME/pykc,\n"
        "else ~/.cache/pykc).");
    sub->require_subcommand(1);
    CLI::App* populate = sub->add_subcommand(
        "populate", "Compile every kernel x signature x arch under PATHS into the cache");
    populate->add_option("PATHS", paths_, "Files or folders")->required();
    populate->add_option("--arch", archs_, "GPU architectures")->delimiter(',');
    populate->add_option("-j", jobs_, "Parallel jobs");
    sub->add_subcommand("stats", "Print entry count, size and hit statistics");
    sub->add_subcommand("ls", "List the entries");
    sub->add_subcommand("verify", "Check every entry's digest");
    sub->add_subcommand("gc", "Evict least-recently-used entries over the size limit");
    sub->add_subcommand("clear", "Remove every entry");
  }

  int run(Invocation& inv) override {
    std::fprintf(inv.err, "pykc: error: `cache` is not implemented in this build yet\n");
    return kExitEnvironment;
  }

private:
  std::vector<std::string> paths_;
  std::vector<std::string> archs_;
  int jobs_ = 0;
};

}  // namespace

std::unique_ptr<Command> addCacheCommand(CLI::App& app) {
  return std::make_unique<CacheCommand>(app);
}

}  // namespace tools
