#pragma once
// The driver's log lines are data handed to the caller (no logger inside):
// the CLI forwards them to its spdlog logger, the C API collects them.
#include <functional>
#include <string_view>

namespace driver {

enum class LogLevel { Debug, Info, Warning };

// Receives one line (no `pykc: level:` prefix, no newline). Called from any
// thread that compiles; must be safe for that. May be empty (lines dropped).
using LogSink = std::function<void(LogLevel, std::string_view)>;

}  // namespace driver
