#include "cli/invocation.h"

#include <spdlog/spdlog.h>

#include <string>

namespace cli {

driver::LogSink logSink(const Invocation& inv) {
  std::shared_ptr<spdlog::logger> log = inv.log;
  if (!log) return {};
  return [log](driver::LogLevel level, std::string_view line) {
    spdlog::level::level_enum l = level == driver::LogLevel::Debug  ? spdlog::level::debug
                                  : level == driver::LogLevel::Info ? spdlog::level::info
                                                                    : spdlog::level::warn;
    log->log(l, "{}", std::string(line));
  };
}

}  // namespace cli
