#pragma once
// Diagnostics: collected in a DiagnosticSink, rendered as STYLE.md §2:
//
//     path:line:col: error: message [kind]
//         source line
//         ^~~~
//     path:line:col: note: message
//
// followed by a blank line. Kinds are listed in diagnostic_kinds.def.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/source.h"

namespace frontend {

enum class Diag : uint16_t {
#define DIAG(Name, Kind, Format) Name,
#include "diagnostics/diagnostic_kinds.def"
};

// The kind as shown in `[kind]` ("invalid-syntax").
std::string_view kindName(Diag d);
// The fmt format string of the message.
std::string_view formatOf(Diag d);

enum class Severity : uint8_t { Error, Warning, Note };

// One rendered-to-be message. Copies the path and line text, so it outlives
// the SourceFile it was reported against.
struct Diagnostic {
  Severity severity = Severity::Error;
  Diag kind = Diag::SyntaxError;
  std::string message;
  std::string path;      // empty: no file (rendered as `pykc: error: ...`)
  std::string lineText;  // the source line verbatim
  uint32_t line = 0;     // 0: no position
  uint32_t column = 0;   // 1-based, bytes
  uint32_t length = 0;   // bytes
  std::vector<Diagnostic> notes;
};

struct RenderOptions {
  bool showKinds = false;  // append ` [kind]` (--diag-kinds)
  bool color = false;      // ANSI colours
};

// Collects the diagnostics of a compilation. Not thread-safe.
class DiagnosticSink {
public:
  // Reports an error at `loc` with the message of `kind` formatted with `args`.
  template <class... Args>
  void error(const Location& loc, Diag kind, const Args&... args) {
    report(Severity::Error, loc, kind, fmt::vformat(formatOf(kind), fmt::make_format_args(args...)));
  }
  template <class... Args>
  void warning(const Location& loc, Diag kind, const Args&... args) {
    report(Severity::Warning, loc, kind, fmt::vformat(formatOf(kind), fmt::make_format_args(args...)));
  }
  // Attaches a note to the last reported error or warning (ignored if none).
  void note(const Location& loc, std::string message);
  // An error with no source position (`pykc: error: message`).
  void error(Diag kind, std::string message);
  // Reports with an already formatted message.
  void report(Severity severity, const Location& loc, Diag kind, std::string message);

  bool hasErrors() const { return errorCount_ > 0; }
  size_t errorCount() const { return errorCount_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  void clear() {
    diagnostics_.clear();
    errorCount_ = 0;
  }

  // Orders the diagnostics by file, line and column (stable), so that the
  // lexer's error (reported first, further down the file) follows the
  // parser's earlier ones.
  void sortByLocation();

  // Renders every diagnostic, in report order.
  std::string render(const RenderOptions& options) const;
  void render(std::FILE* out, const RenderOptions& options) const;

private:
  std::vector<Diagnostic> diagnostics_;
  size_t errorCount_ = 0;
};

// Renders one diagnostic (with its notes and the final blank line).
std::string renderDiagnostic(const Diagnostic& d, const RenderOptions& options);

}  // namespace frontend
