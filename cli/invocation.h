#pragma once
// What every subcommand shares: where diagnostics and logs go, verbosity.
// Created once in main(); passed by reference; no global state.
#include <cstdio>
#include <memory>

#include "driver/log.h"

namespace spdlog {
class logger;
}

namespace cli {

struct Invocation {
  // Diagnostics and errors (stderr unless a test redirects it).
  std::FILE* err = stderr;
  // Regular output (stdout).
  std::FILE* out = stdout;
  // Colour in diagnostics (auto: only when stderr is a terminal).
  bool color = false;
  // Show `[kind]` after diagnostic messages (tests pass --diag-kinds).
  bool diagKinds = false;
  std::shared_ptr<spdlog::logger> log;
};

// The driver's log lines, forwarded to `inv.log` at their level (empty
// when there is no logger).
driver::LogSink logSink(const Invocation& inv);

}  // namespace cli
